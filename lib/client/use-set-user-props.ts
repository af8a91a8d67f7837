"use client";

import { ApiClientError, getCsrfToken } from "./api";
import { usersPath, type UserCard } from "./leads-types";
import { useOptimisticMutation } from "./optimistic";
import { queryKeys } from "./query-keys";

export type PropOperation =
  { op: "update_or_create"; key: string; value: unknown } | { op: "delete"; key: string; value?: undefined };

interface PropsAnswer {
  id: unknown;
}

/**
 * Sets or deletes props through POST /users/{id}/props. The card shows the new values at once and rolls back when
 * the request fails or the server ignores an operation (its reason becomes the error).
 */
export function useSetUserProps(userId: string) {
  return useOptimisticMutation({
    key: queryKeys.users.detail(userId),
    mutationFn: async (operations: PropOperation[]) => {
      const res = await fetchWithMeta(userId, operations);
      const ignored = res.meta.ignored_operations;
      if (Array.isArray(ignored) && ignored.length) {
        const first = ignored[0] as { reason?: string; key?: string; operation?: { key?: string } };
        const what = first.operation?.key ?? first.key ?? "a property";
        throw new ApiClientError(400, "IgnoredOperation", `${what}: ${first.reason ?? "not applied"}`);
      }
      return res.data;
    },
    patch: (old: UserCard, ops) => {
      const custom = { ...old.props_custom };
      const props = { ...old.props };
      for (const o of ops) {
        const target = o.key.startsWith("$") ? props : custom;
        if (o.op === "delete") delete target[o.key];
        else target[o.key] = o.value;
      }
      return { ...old, props, props_custom: custom };
    },
    alsoStale: [queryKeys.leads.all],
    refetchInBackground: true,
  });
}

/** The props answer's `meta` holds the ignored operations, which the envelope client does not return. */
async function fetchWithMeta(userId: string, operations: PropOperation[]) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  const csrf = getCsrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let res: Response;
  try {
    res = await fetch(`${usersPath(userId)}/props`, {
      method: "POST",
      headers,
      credentials: "same-origin",
      body: JSON.stringify({ operations: JSON.stringify(operations) }),
    });
  } catch {
    throw new ApiClientError(
      0,
      "NetworkError",
      "Can't reach the server. Check your connection and try again.",
    );
  }
  const body = (await res.json().catch(() => null)) as {
    data?: PropsAnswer;
    meta?: { status?: number; error?: string; error_message?: string; ignored_operations?: unknown };
  } | null;
  if (!body?.meta || res.status >= 400) {
    throw new ApiClientError(
      res.status,
      body?.meta?.error ?? "BadResponse",
      body?.meta?.error_message ?? "Something went wrong. Please try again.",
    );
  }
  return { data: body.data, meta: body.meta };
}
