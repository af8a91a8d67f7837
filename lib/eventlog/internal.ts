/**
 * The channel of the rows the instances write for each other (access revocations, lib/auth/revocations.ts), through
 * the log's one writer (lib/eventlog/append.ts) like every row: in no app, and not a channel name a client can
 * subscribe to, so no socket, replay or webhook ever carries one. The hub (lib/realtime/hub.ts) hands them to their
 * reader instead of fanning them out.
 */
export const INTERNAL_CHANNEL = "relay:internal";
