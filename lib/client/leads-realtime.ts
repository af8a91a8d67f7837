import type { QueryClient } from "@tanstack/react-query";
import type { SocketPayload } from "@/lib/contract/socket";
import type { LeadsPage, UserCard } from "./leads-types";
import { queryKeys } from "./query-keys";

function patchLeadLists(
  qc: QueryClient,
  userId: string,
  fn: (l: LeadsPage["users"][number]) => LeadsPage["users"][number],
) {
  qc.setQueriesData<LeadsPage>(
    { queryKey: queryKeys.leads.all, predicate: (q) => q.queryKey[2] === "list" },
    (old) =>
      old && Array.isArray(old.users)
        ? { ...old, users: old.users.map((u) => (String(u.id) === userId ? fn(u) : u)) }
        : old,
  );
}

/** `user_presence_changed.<app>`: the card's and the table's presence dot, without a refetch. */
export function onUserPresenceChanged(qc: QueryClient, m: SocketPayload<"user_presence_changed">): void {
  const id = String(m.id);
  const d = m.presence_details;
  qc.setQueryData<UserCard>(queryKeys.users.detail(id), (old) =>
    old
      ? {
          ...old,
          presence: m.presence,
          // An offline user's message has no page: they are on none.
          presence_details: {
            presence: m.presence,
            page_url: d.page_url ?? null,
            page_title: d.page_title ?? null,
            last_heartbeat: d.last_heartbeat,
          },
        }
      : old,
  );
  patchLeadLists(qc, id, (u) => ({ ...u, presence: m.presence }));
}

/** `user_props_changed.<app>.<user>`: changed values (null = deleted) land in the card; lists re-read. */
export function onUserPropsChanged(qc: QueryClient, m: SocketPayload<"user_props_changed">): void {
  const id = String(m.user);
  qc.setQueryData<UserCard>(queryKeys.users.detail(id), (old) => {
    if (!old) return old;
    const props = { ...old.props };
    const custom = { ...old.props_custom };
    const events = { ...old.props_events };
    for (const [k, v] of Object.entries(m.props)) {
      const target = k.startsWith("$event_") ? events : k.startsWith("$") ? props : custom;
      if (v === null) delete target[k];
      else target[k] = v;
    }
    return {
      ...old,
      props,
      props_custom: custom,
      props_events: events,
      ...(m.email_status ? { email_status: m.email_status } : {}),
    };
  });
  patchLeadLists(qc, id, (u) => {
    const props = { ...u.props };
    for (const [k, v] of Object.entries(m.props)) {
      if (!(k in props) && !k.startsWith("$")) continue;
      if (v === null) delete props[k];
      else props[k] = v;
    }
    return { ...u, props };
  });
}
