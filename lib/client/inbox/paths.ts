const seg = (id: string) => encodeURIComponent(id);

export const conversationsPath = (appId: string) => `/api/apps/${seg(appId)}/conversations`;
export const countsPath = (appId: string) => `/api/apps/${seg(appId)}/conversations/counts`;
export const bulkPath = (appId: string) => `/api/apps/${seg(appId)}/conversations/bulk`;
export const conversationPath = (id: string) => `/api/conversations/${seg(id)}`;

/** Where the Leads page shows a user's card. */
export const leadCardHref = (userId: string) => `/leads/users/${seg(userId)}`;
