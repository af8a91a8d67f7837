export const savedRepliesPath = (appId: string, replyId?: string) =>
  `/api/apps/${encodeURIComponent(appId)}/saved_replies${replyId ? `/${encodeURIComponent(replyId)}` : ""}`;

export const byShortcut = <T extends { shortcut: string }>(a: T, b: T) =>
  a.shortcut < b.shortcut ? -1 : a.shortcut > b.shortcut ? 1 : 0;
