-- CreateTable
CREATE TABLE "conversation_counts" (
    "app_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "assignee_id" BIGINT NOT NULL,
    "closed" BOOLEAN NOT NULL,
    "snoozed" BOOLEAN NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "conversation_counts_pkey" PRIMARY KEY ("app_id","channel_id","assignee_id","closed","snoozed")
);

-- AddForeignKey
ALTER TABLE "conversation_counts" ADD CONSTRAINT "conversation_counts_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The counters follow every write to a conversation in the writing statement itself (written by hand: Prisma's
-- schema has no triggers). A row counts while it is in the Inbox's scope (a visitor has replied, no assistant
-- manages it). Both changes of a move (out of one key, into another) are one upsert, rows in key order, so that
-- concurrent moves lock the counters alike. Writes that change none of the keys (most replies) return at once.
-- Deleting an app removes its counters (the foreign key); its conversations' deletes then have nothing to adjust.
CREATE OR REPLACE FUNCTION relay_conversation_counts() RETURNS trigger AS $$
DECLARE
  old_in boolean := false;
  new_in boolean := false;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_in := OLD.has_user_replies AND OLD.assistant_type IS NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_in := NEW.has_user_replies AND NEW.assistant_type IS NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND old_in = new_in AND (NOT new_in OR (
      OLD.app_id = NEW.app_id AND OLD.channel_id IS NOT DISTINCT FROM NEW.channel_id
      AND OLD.assignee_id IS NOT DISTINCT FROM NEW.assignee_id AND OLD.closed = NEW.closed
      AND (OLD.delayed_until IS NULL) = (NEW.delayed_until IS NULL))) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
    RETURN NULL;
  END IF;
  INSERT INTO conversation_counts AS k (app_id, channel_id, assignee_id, closed, snoozed, n)
  SELECT d.app_id, d.channel_id, d.assignee_id, d.closed, d.snoozed, sum(d.n)::int
  FROM (
    SELECT OLD.app_id, COALESCE(OLD.channel_id, 0), COALESCE(OLD.assignee_id, 0), OLD.closed,
      OLD.delayed_until IS NOT NULL, -1
    WHERE old_in
    UNION ALL
    SELECT NEW.app_id, COALESCE(NEW.channel_id, 0), COALESCE(NEW.assignee_id, 0), NEW.closed,
      NEW.delayed_until IS NOT NULL, 1
    WHERE new_in
  ) AS d(app_id, channel_id, assignee_id, closed, snoozed, n)
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(d.n) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (app_id, channel_id, assignee_id, closed, snoozed) DO UPDATE SET n = k.n + EXCLUDED.n;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER conversations_counts AFTER INSERT OR UPDATE OR DELETE ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION relay_conversation_counts();

-- The counters recomputed from the conversations: for the ones written before the trigger (creating it locks the
-- table against writes until this commits), and for bulk loads that run with triggers off (the benchmark dataset).
CREATE OR REPLACE FUNCTION relay_recount_conversations() RETURNS void AS $$
  DELETE FROM conversation_counts;
  INSERT INTO conversation_counts (app_id, channel_id, assignee_id, closed, snoozed, n)
  SELECT app_id, COALESCE(channel_id, 0), COALESCE(assignee_id, 0), closed, delayed_until IS NOT NULL, count(*)::int
  FROM conversations WHERE has_user_replies AND assistant_type IS NULL
  GROUP BY 1, 2, 3, 4, 5;
$$ LANGUAGE sql;

SELECT relay_recount_conversations();
