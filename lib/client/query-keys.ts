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
  inbox: {
    all: ["inbox"] as const,
    lists: (appId: string) => [...queryKeys.inbox.all, appId, "list"] as const,
    /** `params` is the list endpoint's filter (lib/client/inbox/filters.ts listParams). */
    list: (appId: string, params: object) => [...queryKeys.inbox.lists(appId), params] as const,
    counts: (appId: string) => [...queryKeys.inbox.all, appId, "counts"] as const,
    conversation: (id: string) => [...queryKeys.inbox.all, "conversation", id] as const,
    parts: (id: string) => [...queryKeys.inbox.all, "parts", id] as const,
    typing: (id: string) => [...queryKeys.inbox.all, "typing", id] as const,
  },
  leads: {
    all: ["leads"] as const,
    lists: (appId: string) => [...queryKeys.leads.all, appId, "list"] as const,
    list: (appId: string, params: Record<string, unknown>) =>
      [...queryKeys.leads.lists(appId), params] as const,
    /** How many leads match `filters` (the grammar's JSON, "" for none); under lists, refreshed with them. */
    count: (appId: string, filters: string) => [...queryKeys.leads.lists(appId), "count", filters] as const,
    props: (appId: string) => [...queryKeys.leads.all, appId, "props"] as const,
    segments: (appId: string) => [...queryKeys.leads.all, appId, "segments"] as const,
    importJob: (jobId: string) => [...queryKeys.leads.all, "import", jobId] as const,
  },
  users: {
    all: ["users"] as const,
    detail: (userId: string) => [...queryKeys.users.all, userId, "detail"] as const,
    events: (userId: string, name: string) => [...queryKeys.users.all, userId, "events", name] as const,
    conversations: (userId: string) => [...queryKeys.users.all, userId, "conversations"] as const,
  },
  messenger: {
    all: ["messenger"] as const,
    settings: (appId: string) => [...queryKeys.messenger.all, appId, "settings"] as const,
  },
  officeHours: {
    all: ["officeHours"] as const,
    detail: (appId: string) => [...queryKeys.officeHours.all, appId] as const,
  },
  email: {
    all: ["email"] as const,
    settings: (appId: string) => [...queryKeys.email.all, appId, "settings"] as const,
    /** The logged-in operator's own switches (not per app). */
    mine: () => [...queryKeys.email.all, "mine"] as const,
    bounce: (appId: string, address: string) => [...queryKeys.email.all, appId, "bounce", address] as const,
    deliveryLists: (appId: string) => [...queryKeys.email.all, appId, "deliveries"] as const,
    /** `params` is the log's filter (lib/client/use-email-deliveries.ts). */
    deliveries: (appId: string, params: object) => [...queryKeys.email.deliveryLists(appId), params] as const,
    delivery: (appId: string, emailId: string) =>
      [...queryKeys.email.all, appId, "delivery", emailId] as const,
    /** Under deliveryLists, so refreshing the log refreshes the Inbox's lines too. */
    conversation: (appId: string, conversationId: string) =>
      [...queryKeys.email.deliveryLists(appId), "conversation", conversationId] as const,
  },
  savedReplies: {
    all: ["savedReplies"] as const,
    list: (appId: string) => [...queryKeys.savedReplies.all, appId, "list"] as const,
  },
  notifications: {
    all: ["notifications"] as const,
    list: () => [...queryKeys.notifications.all, "list"] as const,
  },
  search: {
    all: ["search"] as const,
    /** `params` is what the search box sends (lib/client/use-search.ts). */
    results: (appId: string, params: object) => [...queryKeys.search.all, appId, params] as const,
  },
  reports: {
    all: ["reports"] as const,
    settings: (appId: string) => [...queryKeys.reports.all, appId, "settings"] as const,
    /** `params` is the report's range and filters (lib/client/use-report.ts). */
    series: (appId: string, series: string, params: object) =>
      [...queryKeys.reports.all, appId, series, params] as const,
  },
  messages: {
    all: ["messages"] as const,
    /** Everything of one app's messages: lists, messages, statistics. */
    app: (appId: string) => [...queryKeys.messages.all, appId] as const,
    lists: (appId: string) => [...queryKeys.messages.app(appId), "list"] as const,
    /** `view`: the list's status filter (lib/client/messages-types.ts MessagesView). */
    list: (appId: string, view: string) => [...queryKeys.messages.lists(appId), view] as const,
    detail: (appId: string, messageId: string) =>
      [...queryKeys.messages.app(appId), "detail", messageId] as const,
    stats: (appId: string, messageId: string) =>
      [...queryKeys.messages.app(appId), "stats", messageId] as const,
  },
  bots: {
    all: ["bots"] as const,
    /** Everything of one app's bots: lists, bots, templates, statistics. */
    app: (appId: string) => [...queryKeys.bots.all, appId] as const,
    lists: (appId: string) => [...queryKeys.bots.app(appId), "list"] as const,
    /** `view`: the list's status filter (lib/client/bots-types.ts BotsView). */
    list: (appId: string, view: string) => [...queryKeys.bots.lists(appId), view] as const,
    detail: (appId: string, botId: string) => [...queryKeys.bots.app(appId), "detail", botId] as const,
    templates: (appId: string) => [...queryKeys.bots.app(appId), "templates"] as const,
    stats: (appId: string, botId: string) => [...queryKeys.bots.app(appId), "stats", botId] as const,
  },
  admins: {
    all: ["admins"] as const,
    list: (appId: string) => [...queryKeys.admins.all, appId, "list"] as const,
  },
  availability: {
    all: ["availability"] as const,
    list: (appId: string) => [...queryKeys.availability.all, appId, "list"] as const,
    routing: (appId: string) => [...queryKeys.availability.all, appId, "routing"] as const,
  },
  csat: {
    all: ["csat"] as const,
    settings: (appId: string) => [...queryKeys.csat.all, appId, "settings"] as const,
    conversation: (conversationId: string) =>
      [...queryKeys.csat.all, "conversation", conversationId] as const,
    user: (appId: string, userId: string) => [...queryKeys.csat.all, appId, "user", userId] as const,
    /** `params` is the report's range and filters (lib/client/use-report.ts ReportParams). */
    report: (appId: string, params: object) => [...queryKeys.csat.all, appId, "report", params] as const,
  },
  bulk: {
    all: ["bulk"] as const,
    job: (appId: string, jobId: string) => [...queryKeys.bulk.all, appId, jobId] as const,
    /** `params` is the list's filter (lib/client/inbox/filters.ts listParams). */
    count: (appId: string, params: object) => [...queryKeys.bulk.all, appId, "count", params] as const,
  },
} as const;
