import type { Db } from "../db/client";
import { withEvents } from "../realtime/outbox";
import { tryRuntime, type Runtime } from "../server/runtime";
import { attachmentUrls, publicBase } from "../attachments/sign";
import { CONVERSATION_COLUMNS, mapConversation, type RawConversation } from "./rows";
import { logEvent } from "./events";
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
      emit(logEvent("conversation", v.row, serializeConversation(v, { version: 2, urls })));
    }
    return views.length;
  });
}

/** Runs while `rt` is the live runtime; a closed server (tests start many) stops its own sweeper. */
export function startDelaySweeper(rt: Runtime, everyMs = SWEEP_EVERY_MS): void {
  let running = false;
  const timer = setInterval(() => {
    if (tryRuntime() !== rt) {
      clearInterval(timer);
      return;
    }
    if (running) return;
    running = true;
    wakeDelayedConversations(rt.db)
      .catch((err: unknown) => {
        if (tryRuntime() === rt) console.error("delay sweeper failed", err);
      })
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
}
