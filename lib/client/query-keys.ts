/**
 * Query-key factories, one per feature. Keys are arrays that start with the feature's name, so a whole feature
 * can be invalidated with `queryClient.invalidateQueries({ queryKey: queryKeys.<feature>.all })`.
 */
export const queryKeys = {
  auth: {
    all: ["auth"] as const,
    me: () => [...queryKeys.auth.all, "me"] as const,
  },
  apiKeys: {
    all: ["apiKeys"] as const,
    list: (appId: string) => [...queryKeys.apiKeys.all, appId, "list"] as const,
  },
  webhooks: {
    all: ["webhooks"] as const,
    list: (appId: string) => [...queryKeys.webhooks.all, appId, "list"] as const,
    detail: (appId: string, webhookId: string) =>
      [...queryKeys.webhooks.all, appId, "detail", webhookId] as const,
    deliveries: (appId: string, webhookId: string) =>
      [...queryKeys.webhooks.all, appId, "deliveries", webhookId] as const,
  },
  channels: {
    all: ["channels"] as const,
    list: (appId: string) => [...queryKeys.channels.all, appId, "list"] as const,
  },
} as const;
