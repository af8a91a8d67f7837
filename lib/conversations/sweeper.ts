import type { Db } from "../db/client";
import { withEvents } from "../eventlog/append";
import type { JobKind } from "../jobs/runner";
import { attachmentUrls, publicBase } from "../attachments/sign";
import { CONVERSATION_COLUMNS, mapConversation, type RawConversation } from "./rows";
import { eventOf } from "../contract/socket";
import { hydrateConversations, LIST_FIELDS, serializeConversation } from "./view";

export const SWEEP_EVERY_MS = 15_000;
const BATCH = 500;

/**
 * Snoozed conversations stop matching `delayed=true` the moment their time passes (the filter compares with
 * now()); this clears the stale `delayed_until` and tells subscribers, so open Inboxes move them back.
 */
export async function wakeDelayedConversations(db: Db): Promise<number> {
  const urls = await attachmentUrls(db, publicBase());
  return withEvents(db, async (tx, emit) => {
    // SKIP LOCKED: a conversation being written right now is left for the next round, never waited for.
    const raw = await tx.$queryRaw<RawConversation[]>`
      UPDATE conversations c SET delayed_until = NULL
      WHERE c.id IN (
        SELECT id FROM conversations WHERE delayed_until <= now()
        ORDER BY delayed_until LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING ${CONVERSATION_COLUMNS}`;
    const views = await hydrateConversations(tx, raw.map(mapConversation), LIST_FIELDS);
    for (const v of views) {
      emit(eventOf("conversation", v.row, serializeConversation(v, { version: 2, urls })));
    }
    return views.length;
  });
}

export const delaySweepJob: JobKind = {
  name: "delay sweeper",
  everyMs: SWEEP_EVERY_MS,
  run: async (rt) => {
    await wakeDelayedConversations(rt.db);
  },
};
