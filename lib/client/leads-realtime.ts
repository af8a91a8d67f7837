import type { QueryClient } from "@tanstack/react-query";
import type { LeadsPage, Presence, UserCard } from "./leads-types";
import { queryKeys } from "./query-keys";

// The dispatcher's handler shape, restated so this module does not import the dispatcher that imports it.
type RealtimeHandler = (msg: { message: unknown }, ctx: { queryClient: QueryClient }) => void;

interface PresenceMessage {
  id: string | number;
  presence: Presence;
  presence_details?: UserCard["presence_details"];
}

interface PropsMessage {
  user: string | number;
  props: Record<string, unknown>;
  email_status?: string;
}

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
export const onUserPresenceChanged: RealtimeHandler = (msg, { queryClient }) => {
  const m = msg.message as PresenceMessage;
  if (!m || m.id === undefined || typeof m.presence !== "string") return;
  const id = String(m.id);
  queryClient.setQueryData<UserCard>(queryKeys.users.detail(id), (old) =>
    old
      ? {
          ...old,
          presence: m.presence,
          presence_details: m.presence_details ?? { ...old.presence_details, presence: m.presence },
        }
      : old,
  );
  patchLeadLists(queryClient, id, (u) => ({ ...u, presence: m.presence }));
};

/** `user_props_changed.<app>.<user>`: changed values (null = deleted) land in the card; lists re-read. */
export const onUserPropsChanged: RealtimeHandler = (msg, { queryClient }) => {
  const m = msg.message as PropsMessage;
  if (!m || m.user === undefined || !m.props || typeof m.props !== "object") return;
  const id = String(m.user);
  queryClient.setQueryData<UserCard>(queryKeys.users.detail(id), (old) => {
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
  patchLeadLists(queryClient, id, (u) => {
    const props = { ...u.props };
    for (const [k, v] of Object.entries(m.props)) {
      if (!(k in props) && !k.startsWith("$")) continue;
      if (v === null) delete props[k];
      else props[k] = v;
    }
    return { ...u, props };
  });
};
