import type { QueryClient } from "@tanstack/react-query";
import type { ConversationRating } from "../csat/schemas";
import { queryKeys } from "./query-keys";

/**
 * A rating asked or given (`conversation_rating`): the conversation's rating as the socket carries it, and the
 * lists that count it (its user's ratings, the report) read again.
 */
export function onConversationRating(qc: QueryClient, app: string, r: ConversationRating): void {
  qc.setQueryData(queryKeys.csat.conversation(String(r.conversation)), r);
  if (r.rating === null) return;
  void qc.invalidateQueries({ queryKey: queryKeys.csat.user(app, String(r.user)) });
  void qc.invalidateQueries({ queryKey: [...queryKeys.csat.all, app, "report"] });
}
