"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

export interface OptimisticMutation<TData, TVars, TCache> {
  /** The cached query that shows the change before the server answers. */
  key: QueryKey;
  mutationFn: (vars: TVars) => Promise<TData>;
  /** The cached value as the change will leave it (not called while nothing is cached). */
  patch: (old: TCache, vars: TVars) => TCache;
  /** Other queries the change makes stale. */
  alsoStale?: QueryKey[];
  /**
   * Settle without waiting for the refetch: for changes whose result is already on screen, so the control is free
   * again at once. By default the mutation ends when the refetched value is in, so nothing flickers back.
   */
  refetchInBackground?: boolean;
}

/**
 * The optimistic mutation of the panel: cancel the query's fetches (an older answer must not overwrite the patch),
 * patch its cache, restore what it held on error, and refetch on settle whatever the outcome.
 */
export function useOptimisticMutation<TData, TVars, TCache>(o: OptimisticMutation<TData, TVars, TCache>) {
  const queryClient = useQueryClient();
  const { key } = o;
  return useMutation({
    mutationFn: o.mutationFn,
    onMutate: async (vars: TVars) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<TCache>(key);
      queryClient.setQueryData<TCache>(key, (old) => (old === undefined ? old : o.patch(old, vars)));
      return { previous };
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => {
      const refetched = [key, ...(o.alsoStale ?? [])].map((k) =>
        queryClient.invalidateQueries({ queryKey: k }),
      );
      return o.refetchInBackground ? undefined : Promise.all(refetched);
    },
  });
}
