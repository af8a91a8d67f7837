-- CreateTable
CREATE TABLE "conversation_facts" (
    "conversation_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "started" TIMESTAMPTZ(6) NOT NULL,
    "assignee_id" BIGINT,
    "channel_id" BIGINT,
    "asked_at" TIMESTAMPTZ(6),
    "answered_at" TIMESTAMPTZ(6),
    "answer_id" BIGINT,
    "responder_id" BIGINT,

    CONSTRAINT "conversation_facts_pkey" PRIMARY KEY ("conversation_id")
);

-- CreateTable
CREATE TABLE "conversation_closes" (
    "part_id" BIGINT NOT NULL,
    "conversation_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "started" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "conversation_closes_pkey" PRIMARY KEY ("part_id")
);

-- CreateTable
CREATE TABLE "conversation_admin_replies" (
    "conversation_id" BIGINT NOT NULL,
    "admin_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "first_at" TIMESTAMPTZ(6) NOT NULL,
    "last_at" TIMESTAMPTZ(6) NOT NULL,
    "replies" INTEGER NOT NULL,

    CONSTRAINT "conversation_admin_replies_pkey" PRIMARY KEY ("conversation_id","admin_id")
);

-- CreateTable
CREATE TABLE "report_quarters" (
    "app_id" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "started" INTEGER NOT NULL DEFAULT 0,
    "closed" INTEGER NOT NULL DEFAULT 0,
    "messages" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "report_quarters_pkey" PRIMARY KEY ("app_id","at")
);

-- CreateIndex
CREATE INDEX "conversation_facts_app_id_started_idx" ON "conversation_facts"("app_id", "started");

-- CreateIndex
CREATE INDEX "conversation_closes_app_id_at_idx" ON "conversation_closes"("app_id", "at");

-- CreateIndex
CREATE INDEX "conversation_closes_conversation_id_idx" ON "conversation_closes"("conversation_id");

-- CreateIndex
CREATE INDEX "conversation_admin_replies_app_id_last_at_idx" ON "conversation_admin_replies"("app_id", "last_at");

-- AddForeignKey
ALTER TABLE "conversation_facts" ADD CONSTRAINT "conversation_facts_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_closes" ADD CONSTRAINT "conversation_closes_part_id_fkey" FOREIGN KEY ("part_id") REFERENCES "conversation_parts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_admin_replies" ADD CONSTRAINT "conversation_admin_replies_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "report_quarters" ADD CONSTRAINT "report_quarters_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The facts and rollups follow every write in the writing statement (by hand: Prisma's schema has no triggers),
-- whichever path writes: the API, the messenger, imports, tests writing rows directly. Writers of a conversation
-- hold its row lock (lockConversation), so its facts are never written by two transactions at once; the first
-- response is set by a conditional UPDATE all the same, which PostgreSQL re-checks against the row a concurrent
-- writer committed, so that the earliest reply wins whatever the commit order.

-- The 15-minute UTC bucket of an instant. Every zone's offset is a whole number of quarter hours (Asia/Kathmandu
-- +05:45 is the finest), so a zone's days and hours are unions of buckets.
CREATE OR REPLACE FUNCTION relay_quarter(t timestamptz) RETURNS timestamptz AS $$
  SELECT date_bin('15 minutes', t, timestamptz '2000-01-01 00:00:00+00')
$$ LANGUAGE sql IMMUTABLE;

CREATE OR REPLACE FUNCTION relay_report_quarter_add(app bigint, t timestamptz, s int, c int, m int)
RETURNS void AS $$
  INSERT INTO report_quarters AS q (app_id, at, started, closed, messages)
  VALUES (app, relay_quarter(t), s, c, m)
  ON CONFLICT (app_id, at) DO UPDATE
  SET started = q.started + EXCLUDED.started, closed = q.closed + EXCLUDED.closed,
    messages = q.messages + EXCLUDED.messages
$$ LANGUAGE sql;

-- One conversation's facts recomputed from its parts: after a part is deleted or rewritten (rare; the app only
-- appends), where an incremental step cannot know what the part had decided.
CREATE OR REPLACE FUNCTION relay_report_refresh(conv bigint) RETURNS void AS $$
BEGIN
  -- Gone (a conversation's delete cascading to its parts): its facts go by their foreign keys.
  IF NOT EXISTS (SELECT 1 FROM conversations WHERE id = conv) THEN
    RETURN;
  END IF;
  UPDATE conversation_facts f SET asked_at = q.asked, answered_at = r.created, answer_id = r.id,
    responder_id = r.from_admin_id
  FROM (SELECT min(created) AS asked FROM conversation_parts WHERE conversation_id = conv AND type = 'reply_user') q
  LEFT JOIN LATERAL (
    SELECT p.created, p.id, p.from_admin_id FROM conversation_parts p
    WHERE p.conversation_id = conv AND p.type = 'reply_admin' AND p.created >= q.asked
    ORDER BY p.created, p.id LIMIT 1
  ) r ON true
  WHERE f.conversation_id = conv;
  DELETE FROM conversation_closes WHERE conversation_id = conv;
  INSERT INTO conversation_closes (part_id, conversation_id, app_id, at, started)
  SELECT p.id, p.conversation_id, p.app_id, p.created, c.created
  FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
  WHERE p.conversation_id = conv AND p.type = 'closed';
  DELETE FROM conversation_admin_replies WHERE conversation_id = conv;
  INSERT INTO conversation_admin_replies (conversation_id, admin_id, app_id, first_at, last_at, replies)
  SELECT conversation_id, from_admin_id, min(app_id), min(created), max(created), count(*)::int
  FROM conversation_parts
  WHERE conversation_id = conv AND type = 'reply_admin' AND from_admin_id IS NOT NULL
  GROUP BY 1, 2;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION relay_report_conversations() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO conversation_facts (conversation_id, app_id, started, assignee_id, channel_id)
    VALUES (NEW.id, NEW.app_id, NEW.created, NEW.assignee_id, NEW.channel_id);
    PERFORM relay_report_quarter_add(NEW.app_id, NEW.created, 1, 0, 0);
  ELSIF TG_OP = 'DELETE' THEN
    -- Deleting an app removes its rollups (the foreign key); its conversations' deletes have nothing to adjust.
    IF EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
      PERFORM relay_report_quarter_add(OLD.app_id, OLD.created, -1, 0, 0);
    END IF;
  ELSE
    UPDATE conversation_facts SET started = NEW.created, assignee_id = NEW.assignee_id, channel_id = NEW.channel_id
    WHERE conversation_id = NEW.id;
    IF OLD.created <> NEW.created THEN
      UPDATE conversation_closes SET started = NEW.created WHERE conversation_id = NEW.id;
      PERFORM relay_report_quarter_add(OLD.app_id, OLD.created, -1, 0, 0);
      PERFORM relay_report_quarter_add(NEW.app_id, NEW.created, 1, 0, 0);
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER conversations_reports AFTER INSERT OR DELETE ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION relay_report_conversations();
-- Most updates of a conversation (every reply rewrites its counters) change none of what the facts hold.
CREATE TRIGGER conversations_reports_update AFTER UPDATE ON "conversations"
  FOR EACH ROW WHEN (OLD.assignee_id IS DISTINCT FROM NEW.assignee_id
    OR OLD.channel_id IS DISTINCT FROM NEW.channel_id OR OLD.created <> NEW.created)
  EXECUTE FUNCTION relay_report_conversations();

CREATE OR REPLACE FUNCTION relay_report_parts() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- The app's delete cascading: its rows go by their foreign keys.
    IF NOT EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
      RETURN NULL;
    END IF;
    IF OLD.type IN ('reply_user', 'closed') THEN
      PERFORM relay_report_quarter_add(OLD.app_id, OLD.created, 0, -(OLD.type = 'closed')::int,
        -(OLD.type = 'reply_user')::int);
    END IF;
    PERFORM relay_report_refresh(OLD.conversation_id);
    IF TG_OP = 'DELETE' THEN
      RETURN NULL;
    END IF;
    IF NEW.type IN ('reply_user', 'closed') THEN
      PERFORM relay_report_quarter_add(NEW.app_id, NEW.created, 0, (NEW.type = 'closed')::int,
        (NEW.type = 'reply_user')::int);
    END IF;
    IF NEW.conversation_id <> OLD.conversation_id THEN
      PERFORM relay_report_refresh(NEW.conversation_id);
    END IF;
    RETURN NULL;
  END IF;
  IF NEW.type = 'reply_user' THEN
    PERFORM relay_report_quarter_add(NEW.app_id, NEW.created, 0, 0, 1);
    -- Only the conversation's first message (or one written with an earlier time) moves the question, and with it
    -- the answer: the first reply at or after it.
    UPDATE conversation_facts SET asked_at = NEW.created
    WHERE conversation_id = NEW.conversation_id AND (asked_at IS NULL OR asked_at > NEW.created);
    IF FOUND THEN
      UPDATE conversation_facts f SET (answered_at, answer_id, responder_id) = (
        SELECT p.created, p.id, p.from_admin_id FROM conversation_parts p
        WHERE p.conversation_id = f.conversation_id AND p.type = 'reply_admin' AND p.created >= f.asked_at
        ORDER BY p.created, p.id LIMIT 1)
      WHERE f.conversation_id = NEW.conversation_id;
    END IF;
  ELSIF NEW.type = 'reply_admin' THEN
    UPDATE conversation_facts SET answered_at = NEW.created, answer_id = NEW.id, responder_id = NEW.from_admin_id
    WHERE conversation_id = NEW.conversation_id AND asked_at <= NEW.created
      AND (answered_at IS NULL OR (answered_at, answer_id) > (NEW.created, NEW.id));
    IF NEW.from_admin_id IS NOT NULL THEN
      INSERT INTO conversation_admin_replies AS r (conversation_id, admin_id, app_id, first_at, last_at, replies)
      VALUES (NEW.conversation_id, NEW.from_admin_id, NEW.app_id, NEW.created, NEW.created, 1)
      ON CONFLICT (conversation_id, admin_id) DO UPDATE
      SET first_at = LEAST(r.first_at, EXCLUDED.first_at), last_at = GREATEST(r.last_at, EXCLUDED.last_at),
        replies = r.replies + 1;
    END IF;
  ELSE
    PERFORM relay_report_quarter_add(NEW.app_id, NEW.created, 0, 1, 0);
    INSERT INTO conversation_closes (part_id, conversation_id, app_id, at, started)
    SELECT NEW.id, NEW.conversation_id, NEW.app_id, NEW.created, f.started
    FROM conversation_facts f WHERE f.conversation_id = NEW.conversation_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Only the parts the reports count wake the function (notes, assignments and the like do not).
CREATE TRIGGER conversation_parts_reports AFTER INSERT ON "conversation_parts"
  FOR EACH ROW WHEN (NEW.type IN ('reply_user', 'reply_admin', 'closed'))
  EXECUTE FUNCTION relay_report_parts();
CREATE TRIGGER conversation_parts_reports_delete AFTER DELETE ON "conversation_parts"
  FOR EACH ROW WHEN (OLD.type IN ('reply_user', 'reply_admin', 'closed'))
  EXECUTE FUNCTION relay_report_parts();
-- A deleted operator's parts lose their author (ON DELETE SET NULL): nothing to recount, their rows drop out of
-- the operators report by its join on admins.
CREATE TRIGGER conversation_parts_reports_update AFTER UPDATE ON "conversation_parts"
  FOR EACH ROW WHEN ((OLD.type IN ('reply_user', 'reply_admin', 'closed')
      OR NEW.type IN ('reply_user', 'reply_admin', 'closed'))
    AND (OLD.type <> NEW.type OR OLD.created <> NEW.created OR OLD.conversation_id <> NEW.conversation_id
      OR (NEW.from_admin_id IS NOT NULL AND OLD.from_admin_id IS DISTINCT FROM NEW.from_admin_id)))
  EXECUTE FUNCTION relay_report_parts();

-- Everything recomputed from the conversations and parts (of one app, or all): the backfill below, and bulk
-- loads that run with triggers off (the benchmark dataset).
CREATE OR REPLACE FUNCTION relay_rebuild_reports(app bigint DEFAULT NULL) RETURNS void AS $$
BEGIN
  DELETE FROM conversation_facts WHERE app IS NULL OR app_id = app;
  DELETE FROM conversation_closes WHERE app IS NULL OR app_id = app;
  DELETE FROM conversation_admin_replies WHERE app IS NULL OR app_id = app;
  DELETE FROM report_quarters WHERE app IS NULL OR app_id = app;
  WITH asked AS (
    SELECT conversation_id, min(created) AS at FROM conversation_parts
    WHERE type = 'reply_user' AND (app IS NULL OR app_id = app)
    GROUP BY 1
  ), answer AS (
    SELECT DISTINCT ON (p.conversation_id) p.conversation_id, p.created, p.id, p.from_admin_id
    FROM conversation_parts p JOIN asked a ON a.conversation_id = p.conversation_id
    WHERE p.type = 'reply_admin' AND p.created >= a.at
    ORDER BY p.conversation_id, p.created, p.id
  )
  INSERT INTO conversation_facts (conversation_id, app_id, started, assignee_id, channel_id, asked_at,
    answered_at, answer_id, responder_id)
  SELECT c.id, c.app_id, c.created, c.assignee_id, c.channel_id, a.at, r.created, r.id, r.from_admin_id
  FROM conversations c LEFT JOIN asked a ON a.conversation_id = c.id LEFT JOIN answer r ON r.conversation_id = c.id
  WHERE app IS NULL OR c.app_id = app;
  INSERT INTO conversation_closes (part_id, conversation_id, app_id, at, started)
  SELECT p.id, p.conversation_id, p.app_id, p.created, c.created
  FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
  WHERE p.type = 'closed' AND (app IS NULL OR p.app_id = app);
  INSERT INTO conversation_admin_replies (conversation_id, admin_id, app_id, first_at, last_at, replies)
  SELECT conversation_id, from_admin_id, min(app_id), min(created), max(created), count(*)::int
  FROM conversation_parts
  WHERE type = 'reply_admin' AND from_admin_id IS NOT NULL AND (app IS NULL OR app_id = app)
  GROUP BY 1, 2;
  INSERT INTO report_quarters (app_id, at, started, closed, messages)
  SELECT app_id, relay_quarter(t), sum(s)::int, sum(k)::int, sum(m)::int
  FROM (
    SELECT app_id, created, 1, 0, 0 FROM conversations WHERE app IS NULL OR app_id = app
    UNION ALL
    SELECT app_id, created, 0, (type = 'closed')::int, (type = 'reply_user')::int FROM conversation_parts
    WHERE type IN ('closed', 'reply_user') AND (app IS NULL OR app_id = app)
  ) x(app_id, t, s, k, m)
  GROUP BY 1, 2;
END;
$$ LANGUAGE plpgsql;

SELECT relay_rebuild_reports();
