-- The Inbox counters (lib/conversations/counts.ts) group what the Inbox shows by channel, closed, assignee and
-- snooze: this partial index holds exactly those columns, so the counters are an index-only scan instead of a read
-- of every conversation row of the app.
CREATE INDEX "conversations_inbox_counts_idx" ON "conversations" ("app_id", "channel_id", "closed", "assignee_id", "delayed_until")
  WHERE "has_user_replies" AND "assistant_type" IS NULL;
-- Deleting a user sets `from_user_id` of their messages to NULL: without an index each deleted user scans every part.
CREATE INDEX "conversation_parts_from_user_id_idx" ON "conversation_parts" ("from_user_id") WHERE "from_user_id" IS NOT NULL;
