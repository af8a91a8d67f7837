-- CreateTable
CREATE TABLE "report_filter_quarters" (
    "app_id" BIGINT NOT NULL,
    "assignee_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "started" INTEGER NOT NULL DEFAULT 0,
    "closed" INTEGER NOT NULL DEFAULT 0,
    "messages" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "report_filter_quarters_pkey" PRIMARY KEY ("app_id","assignee_id","channel_id","at")
);

-- CreateTable
CREATE TABLE "lead_quarters" (
    "app_id" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "leads" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "lead_quarters_pkey" PRIMARY KEY ("app_id","at")
);

-- CreateIndex
CREATE INDEX "report_filter_quarters_app_id_assignee_id_at_started_closed_idx" ON "report_filter_quarters"("app_id", "assignee_id", "at", "started", "closed", "messages");

-- CreateIndex
CREATE INDEX "report_filter_quarters_app_id_channel_id_at_started_closed__idx" ON "report_filter_quarters"("app_id", "channel_id", "at", "started", "closed", "messages");

-- AddForeignKey
ALTER TABLE "report_filter_quarters" ADD CONSTRAINT "report_filter_quarters_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lead_quarters" ADD CONSTRAINT "lead_quarters_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Filtered conversations and busiest hours: conversations started, `closed` parts and visitors' messages per app,
-- current assignee and channel of the conversation (0 for none), and 15-minute bucket (report_filter_quarters).
-- One row per conversation and bucket was tried first: on the 1M bench dataset its rows were nearly as many as
-- the messages (887k for 924k), and a year for one operator read 257k of them through a join (2.1 s at load 7);
-- these rows number at most buckets x assignees x channels (332k there), and one operator's year is 66k index
-- entries (68 ms, same load). The price: a reassignment moves the conversation's counts from one row set to the
-- other, reading its parts (by conversation_id).

-- Counts at t in the rows of conversation conv as it is now; nothing once it is gone (its delete subtracted its
-- counts before the rows cascading from it were deleted: see relay_report_filters).
CREATE OR REPLACE FUNCTION relay_filter_quarter_add(conv bigint, t timestamptz, c int, m int) RETURNS void AS $$
  INSERT INTO report_filter_quarters AS q (app_id, assignee_id, channel_id, at, closed, messages)
  SELECT v.app_id, COALESCE(v.assignee_id, 0), COALESCE(v.channel_id, 0), relay_quarter(t), c, m
  FROM conversations v WHERE v.id = conv
  ON CONFLICT (app_id, assignee_id, channel_id, at) DO UPDATE
  SET closed = q.closed + EXCLUDED.closed, messages = q.messages + EXCLUDED.messages
$$ LANGUAGE sql;

-- A conversation's counts (its start, its closes, its visitors' messages), times sign, in the rows of (app,
-- assignee, channel).
CREATE OR REPLACE FUNCTION relay_filter_quarters_move(conv bigint, started_at timestamptz, app bigint,
  assignee bigint, channel bigint, sign int) RETURNS void AS $$
  INSERT INTO report_filter_quarters AS q (app_id, assignee_id, channel_id, at, started, closed, messages)
  SELECT app, COALESCE(assignee, 0), COALESCE(channel, 0), relay_quarter(x.t), sign * sum(x.s)::int,
    sign * sum(x.k)::int, sign * sum(x.m)::int
  FROM (
    SELECT started_at, 1, 0, 0
    UNION ALL
    SELECT p.created, 0, (p.type = 'closed')::int, (p.type = 'reply_user')::int FROM conversation_parts p
    WHERE p.conversation_id = conv AND p.type IN ('reply_user', 'closed')
  ) x(t, s, k, m)
  GROUP BY 4 ORDER BY 4
  ON CONFLICT (app_id, assignee_id, channel_id, at) DO UPDATE
  SET started = q.started + EXCLUDED.started, closed = q.closed + EXCLUDED.closed,
    messages = q.messages + EXCLUDED.messages
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION relay_report_filters() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- The app's delete cascading: its rows go by their foreign keys.
    IF NOT EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
      RETURN OLD;
    END IF;
    PERFORM relay_filter_quarters_move(OLD.id, OLD.created, OLD.app_id, OLD.assignee_id, OLD.channel_id, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM relay_filter_quarters_move(NEW.id, NEW.created, NEW.app_id, NEW.assignee_id, NEW.channel_id, 1);
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER conversations_report_filters AFTER INSERT ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION relay_report_filters();
-- Before the delete, while its parts are there to count (their own deletes, cascading, find no conversation).
CREATE TRIGGER conversations_report_filters_delete BEFORE DELETE ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION relay_report_filters();
CREATE TRIGGER conversations_report_filters_update AFTER UPDATE ON "conversations"
  FOR EACH ROW WHEN (OLD.assignee_id IS DISTINCT FROM NEW.assignee_id
    OR OLD.channel_id IS DISTINCT FROM NEW.channel_id OR OLD.app_id <> NEW.app_id OR OLD.created <> NEW.created)
  EXECUTE FUNCTION relay_report_filters();

CREATE OR REPLACE FUNCTION relay_report_filter_parts() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.type IN ('reply_user', 'closed') THEN
    PERFORM relay_filter_quarter_add(OLD.conversation_id, OLD.created, -(OLD.type = 'closed')::int,
      -(OLD.type = 'reply_user')::int);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.type IN ('reply_user', 'closed') THEN
    PERFORM relay_filter_quarter_add(NEW.conversation_id, NEW.created, (NEW.type = 'closed')::int,
      (NEW.type = 'reply_user')::int);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER conversation_parts_report_filters AFTER INSERT ON "conversation_parts"
  FOR EACH ROW WHEN (NEW.type IN ('reply_user', 'closed')) EXECUTE FUNCTION relay_report_filter_parts();
CREATE TRIGGER conversation_parts_report_filters_delete AFTER DELETE ON "conversation_parts"
  FOR EACH ROW WHEN (OLD.type IN ('reply_user', 'closed')) EXECUTE FUNCTION relay_report_filter_parts();
CREATE TRIGGER conversation_parts_report_filters_update AFTER UPDATE ON "conversation_parts"
  FOR EACH ROW WHEN ((OLD.type IN ('reply_user', 'closed') OR NEW.type IN ('reply_user', 'closed'))
    AND (OLD.type <> NEW.type OR OLD.created <> NEW.created OR OLD.conversation_id <> NEW.conversation_id))
  EXECUTE FUNCTION relay_report_filter_parts();

-- Leads per app and bucket of their creation (lead_quarters), where the leads report scanned the users.
CREATE OR REPLACE FUNCTION relay_lead_quarter_add(app bigint, t timestamptz, n int) RETURNS void AS $$
  INSERT INTO lead_quarters AS q (app_id, at, leads) VALUES (app, relay_quarter(t), n)
  ON CONFLICT (app_id, at) DO UPDATE SET leads = q.leads + EXCLUDED.leads
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION relay_report_leads() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.is_lead AND EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
    PERFORM relay_lead_quarter_add(OLD.app_id, OLD.created, -1);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.is_lead THEN
    PERFORM relay_lead_quarter_add(NEW.app_id, NEW.created, 1);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Heartbeats, presence and props updates change none of is_lead, created, app_id: the WHEN clause keeps them from
-- calling the function at all.
CREATE TRIGGER users_report_leads_insert AFTER INSERT ON "users"
  FOR EACH ROW WHEN (NEW.is_lead) EXECUTE FUNCTION relay_report_leads();
CREATE TRIGGER users_report_leads_delete AFTER DELETE ON "users"
  FOR EACH ROW WHEN (OLD.is_lead) EXECUTE FUNCTION relay_report_leads();
CREATE TRIGGER users_report_leads_update AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.is_lead IS DISTINCT FROM NEW.is_lead
    OR (NEW.is_lead AND (OLD.created <> NEW.created OR OLD.app_id <> NEW.app_id)))
  EXECUTE FUNCTION relay_report_leads();

-- The two rollups recomputed (of one app, or all), from the conversations and parts, and from the users.
CREATE OR REPLACE FUNCTION relay_rebuild_report_filters(app bigint DEFAULT NULL) RETURNS void AS $$
  INSERT INTO report_filter_quarters (app_id, assignee_id, channel_id, at, started, closed, messages)
  SELECT c.app_id, COALESCE(c.assignee_id, 0), COALESCE(c.channel_id, 0), relay_quarter(x.t), sum(x.s)::int,
    sum(x.k)::int, sum(x.m)::int
  FROM (
    SELECT id, created, 1, 0, 0 FROM conversations WHERE app IS NULL OR app_id = app
    UNION ALL
    SELECT conversation_id, created, 0, (type = 'closed')::int, (type = 'reply_user')::int FROM conversation_parts
    WHERE type IN ('reply_user', 'closed') AND (app IS NULL OR app_id = app)
  ) x(conv, t, s, k, m) JOIN conversations c ON c.id = x.conv
  GROUP BY 1, 2, 3, 4;
  INSERT INTO lead_quarters (app_id, at, leads)
  SELECT app_id, relay_quarter(created), count(*)::int FROM users
  WHERE is_lead AND (app IS NULL OR app_id = app)
  GROUP BY 1, 2;
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION relay_rebuild_reports(app bigint DEFAULT NULL) RETURNS void AS $$
BEGIN
  DELETE FROM conversation_facts WHERE app IS NULL OR app_id = app;
  DELETE FROM conversation_closes WHERE app IS NULL OR app_id = app;
  DELETE FROM conversation_admin_replies WHERE app IS NULL OR app_id = app;
  DELETE FROM report_quarters WHERE app IS NULL OR app_id = app;
  DELETE FROM report_filter_quarters WHERE app IS NULL OR app_id = app;
  DELETE FROM lead_quarters WHERE app IS NULL OR app_id = app;
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
  PERFORM relay_rebuild_report_filters(app);
END;
$$ LANGUAGE plpgsql;

SELECT relay_rebuild_report_filters();
