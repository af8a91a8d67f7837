"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { queryKeys } from "./query-keys";
import { useCurrentApp } from "./use-current-app";

/** How long a search that matches nothing waits before asking the server again (typing goes on meanwhile). */
const MISS_AFTER_MS = 300;

/**
 * Keeps the props catalog (usePropCatalog) fresh where it is offered: a prop created by an import or the API a
 * moment ago must be pickable at once, not after the catalog's staleTime. The pickers call `onOpen` when they open
 * and `onMiss(query)` while a search finds nothing; each refetches the current app's catalog, joining a fetch
 * already in flight. Why not a socket event when a prop is first seen: that check would sit on the hot ingest
 * paths (every props update, every import row) for what one read on a picker's opening answers.
 */
export function useRefreshPropCatalog() {
  const qc = useQueryClient();
  const { app } = useCurrentApp();
  const appId = app ? String(app.id) : null;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastMiss = useRef("");
  useEffect(() => () => clearTimeout(timer.current), []);

  const refresh = useCallback(() => {
    if (appId === null) return;
    void qc.refetchQueries({ queryKey: queryKeys.leads.props(appId), exact: true }, { cancelRefetch: false });
  }, [qc, appId]);

  const onOpen = useCallback(() => {
    lastMiss.current = "";
    refresh();
  }, [refresh]);

  const onMiss = useCallback(
    (query: string) => {
      // Once per text that found nothing: the answer to it is either in the list now or not there yet.
      if (query === lastMiss.current) return;
      lastMiss.current = query;
      clearTimeout(timer.current);
      timer.current = setTimeout(refresh, MISS_AFTER_MS);
    },
    [refresh],
  );
  return useMemo(() => ({ onOpen, onMiss }), [onOpen, onMiss]);
}
