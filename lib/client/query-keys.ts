/**
 * Query-key factories, one per feature. Keys are arrays that start with the feature's name, so a whole feature
 * can be invalidated with `queryClient.invalidateQueries({ queryKey: queryKeys.<feature>.all })`.
 */
export const queryKeys = {
  auth: {
    all: ["auth"] as const,
    me: () => [...queryKeys.auth.all, "me"] as const,
  },
} as const;
