-- Reports follow who did the work at the time, not the conversation's current assignee (#40): reassigning a
-- conversation today must not rewrite last month's figures. report_filter_quarters.assignee_id now holds the
-- operator each count is attributed to (0: none):
--   started  -> the conversation's first owner: its assignee at creation, else the operator of its first
--               `assigned` part naming one (routing writes that part with the visitor's first message);
--   closed   -> the author of the `closed` part (0: closed by no operator, as a bot or the sweeper do);
--   messages -> the conversation's assignee when the visitor wrote: the latest `assigned` part at or before the
--               message, else its assignee at creation.
-- conversation_facts.assignee_id is the assignee at creation, set once (the conversations' update trigger no longer
-- follows reassignments). Each attribution is a function of the conversation's row at creation and its parts, so a
-- channel change or a delete still moves or subtracts exactly what was added; a reassignment (an `assigned` part
-- after what was counted) moves nothing. An `assigned` part written with an earlier time than messages already
-- counted (an import) does not move them: relay_rebuild_reports recomputes everything.

-- The operator at instant t (or the part pid written at t) of conversation conv, whose assignee at creation was
-- initial: 0 for none.
CREATE OR REPLACE FUNCTION relay_work_operator(conv bigint, t timestamptz, pid bigint, initial bigint)
RETURNS bigint AS $$
  SELECT COALESCE((
    SELECT COALESCE(p.assignee_id, 0) FROM conversation_parts p
    WHERE p.conversation_id = conv AND p.type = 'assigned' AND (p.created, p.id) <= (t, pid)
    ORDER BY p.created DESC, p.id DESC LIMIT 1), initial, 0)
$$ LANGUAGE sql STABLE;

-- The first owner of conversation conv (what its start counts for).
CREATE OR REPLACE FUNCTION relay_first_owner(conv bigint, initial bigint) RETURNS bigint AS $$
  SELECT COALESCE(initial, (
    SELECT p.assignee_id FROM conversation_parts p
    WHERE p.conversation_id = conv AND p.type = 'assigned' AND p.assignee_id IS NOT NULL
    ORDER BY p.created, p.id LIMIT 1), 0)
$$ LANGUAGE sql STABLE;

-- The operator a counted part is attributed to: its author for a close, the assignee then for a visitor's message.
CREATE OR REPLACE FUNCTION relay_part_operator(conv bigint, type text, t timestamptz, pid bigint,
  author bigint, initial bigint) RETURNS bigint AS $$
  SELECT CASE WHEN type = 'closed' THEN COALESCE(author, 0) ELSE relay_work_operator(conv, t, pid, initial) END
$$ LANGUAGE sql STABLE;

-- Counts at t for operator op in the rows of conversation conv's app and channel; nothing once it is gone (its
-- delete subtracted its counts before the rows cascading from it were deleted: see relay_report_filters).
CREATE OR REPLACE FUNCTION relay_filter_work_add(conv bigint, op bigint, t timestamptz, s int, c int, m int)
RETURNS void AS $$
  INSERT INTO report_filter_quarters AS q (app_id, assignee_id, channel_id, at, started, closed, messages)
  SELECT v.app_id, op, COALESCE(v.channel_id, 0), relay_quarter(t), s, c, m
  FROM conversations v WHERE v.id = conv
  ON CONFLICT (app_id, assignee_id, channel_id, at) DO UPDATE
  SET started = q.started + EXCLUDED.started, closed = q.closed + EXCLUDED.closed,
    messages = q.messages + EXCLUDED.messages
$$ LANGUAGE sql;

-- A conversation's counts (its start, its closes, its visitors' messages), times sign, in the rows of (app,
-- channel) under the operator each is attributed to.
CREATE OR REPLACE FUNCTION relay_filter_work_move(conv bigint, started_at timestamptz, app bigint,
  initial bigint, channel bigint, sign int) RETURNS void AS $$
  INSERT INTO report_filter_quarters AS q (app_id, assignee_id, channel_id, at, started, closed, messages)
  SELECT app, x.op, COALESCE(channel, 0), relay_quarter(x.t), sign * sum(x.s)::int, sign * sum(x.k)::int,
    sign * sum(x.m)::int
  FROM (
    SELECT started_at, relay_first_owner(conv, initial), 1, 0, 0
    UNION ALL
    SELECT p.created, relay_part_operator(conv, p.type, p.created, p.id, p.from_admin_id, initial), 0,
      (p.type = 'closed')::int, (p.type = 'reply_user')::int
    FROM conversation_parts p
    WHERE p.conversation_id = conv AND p.type IN ('reply_user', 'closed')
  ) x(t, op, s, k, m)
  GROUP BY 2, 4 ORDER BY 2, 4
  ON CONFLICT (app_id, assignee_id, channel_id, at) DO UPDATE
  SET started = q.started + EXCLUDED.started, closed = q.closed + EXCLUDED.closed,
    messages = q.messages + EXCLUDED.messages
$$ LANGUAGE sql;

CREATE OR REPLACE FUNCTION relay_report_filters() RETURNS trigger AS $$
DECLARE
  initial bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- No parts yet: only its start, for its assignee at creation (facts are written by a later trigger).
    INSERT INTO report_filter_quarters AS q (app_id, assignee_id, channel_id, at, started)
    VALUES (NEW.app_id, COALESCE(NEW.assignee_id, 0), COALESCE(NEW.channel_id, 0), relay_quarter(NEW.created), 1)
    ON CONFLICT (app_id, assignee_id, channel_id, at) DO UPDATE SET started = q.started + 1;
    RETURN NULL;
  END IF;
  -- The app's delete cascading: its rows go by their foreign keys.
  IF NOT EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
    RETURN OLD;
  END IF;
  SELECT f.assignee_id INTO initial FROM conversation_facts f WHERE f.conversation_id = OLD.id;
  PERFORM relay_filter_work_move(OLD.id, OLD.created, OLD.app_id, initial, OLD.channel_id, -1);
  IF TG_OP = 'UPDATE' THEN
    PERFORM relay_filter_work_move(NEW.id, NEW.created, NEW.app_id, initial, NEW.channel_id, 1);
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;

-- A reassignment no longer wakes it: only what the rows are keyed or bucketed by.
DROP TRIGGER conversations_report_filters_update ON "conversations";
CREATE TRIGGER conversations_report_filters_update AFTER UPDATE ON "conversations"
  FOR EACH ROW WHEN (OLD.channel_id IS DISTINCT FROM NEW.channel_id OR OLD.app_id <> NEW.app_id
    OR OLD.created <> NEW.created)
  EXECUTE FUNCTION relay_report_filters();

CREATE OR REPLACE FUNCTION relay_report_filter_parts() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.type IN ('reply_user', 'closed') THEN
    PERFORM relay_filter_work_add(OLD.conversation_id, relay_part_operator(OLD.conversation_id, OLD.type,
        OLD.created, OLD.id, OLD.from_admin_id,
        (SELECT f.assignee_id FROM conversation_facts f WHERE f.conversation_id = OLD.conversation_id)),
      OLD.created, 0, -(OLD.type = 'closed')::int, -(OLD.type = 'reply_user')::int);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.type IN ('reply_user', 'closed') THEN
    PERFORM relay_filter_work_add(NEW.conversation_id, relay_part_operator(NEW.conversation_id, NEW.type,
        NEW.created, NEW.id, NEW.from_admin_id,
        (SELECT f.assignee_id FROM conversation_facts f WHERE f.conversation_id = NEW.conversation_id)),
      NEW.created, 0, (NEW.type = 'closed')::int, (NEW.type = 'reply_user')::int);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- A close moves with its author (not with a deleted operator's SET NULL: their counts stay under their ID).
DROP TRIGGER conversation_parts_report_filters_update ON "conversation_parts";
CREATE TRIGGER conversation_parts_report_filters_update AFTER UPDATE ON "conversation_parts"
  FOR EACH ROW WHEN ((OLD.type IN ('reply_user', 'closed') OR NEW.type IN ('reply_user', 'closed'))
    AND (OLD.type <> NEW.type OR OLD.created <> NEW.created OR OLD.conversation_id <> NEW.conversation_id
      OR (NEW.type = 'closed' AND NEW.from_admin_id IS NOT NULL
        AND OLD.from_admin_id IS DISTINCT FROM NEW.from_admin_id)))
  EXECUTE FUNCTION relay_report_filter_parts();

-- The first `assigned` part naming an operator, on a conversation created unassigned, makes that operator its
-- first owner: its start moves from none to them. Later assignments move nothing.
CREATE OR REPLACE FUNCTION relay_report_filter_assigned() RETURNS trigger AS $$
DECLARE
  conv record;
BEGIN
  SELECT c.id, c.created, f.assignee_id AS initial INTO conv
  FROM conversations c JOIN conversation_facts f ON f.conversation_id = c.id
  WHERE c.id = NEW.conversation_id;
  IF NOT FOUND OR conv.initial IS NOT NULL OR EXISTS (
    SELECT 1 FROM conversation_parts p
    WHERE p.conversation_id = NEW.conversation_id AND p.type = 'assigned' AND p.assignee_id IS NOT NULL
      AND (p.created, p.id) < (NEW.created, NEW.id)
  ) THEN
    RETURN NULL;
  END IF;
  PERFORM relay_filter_work_add(conv.id, 0, conv.created, -1, 0, 0);
  PERFORM relay_filter_work_add(conv.id, NEW.assignee_id, conv.created, 1, 0, 0);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER conversation_parts_report_filters_assigned AFTER INSERT ON "conversation_parts"
  FOR EACH ROW WHEN (NEW.type = 'assigned' AND NEW.assignee_id IS NOT NULL)
  EXECUTE FUNCTION relay_report_filter_assigned();

-- The facts keep the assignee at creation: a reassignment no longer rewrites them.
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
    UPDATE conversation_facts SET started = NEW.created, channel_id = NEW.channel_id
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

DROP TRIGGER conversations_reports_update ON "conversations";
CREATE TRIGGER conversations_reports_update AFTER UPDATE ON "conversations"
  FOR EACH ROW WHEN (OLD.channel_id IS DISTINCT FROM NEW.channel_id OR OLD.created <> NEW.created)
  EXECUTE FUNCTION relay_report_conversations();

-- The assignee at creation of a conversation already in the database: not recorded anywhere, so the best the rows
-- tell. The product creates conversations unassigned and assigns them with `assigned` parts, so one with such a
-- part had none; one without was never reassigned, and has the one it has now.
CREATE OR REPLACE FUNCTION relay_initial_assignee(conv bigint, current bigint) RETURNS bigint AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM conversation_parts p WHERE p.conversation_id = conv AND p.type = 'assigned')
    THEN NULL ELSE current END
$$ LANGUAGE sql STABLE;

CREATE OR REPLACE FUNCTION relay_rebuild_report_filters(app bigint DEFAULT NULL) RETURNS void AS $$
  INSERT INTO report_filter_quarters (app_id, assignee_id, channel_id, at, started, closed, messages)
  SELECT c.app_id, x.op, COALESCE(c.channel_id, 0), relay_quarter(x.t), sum(x.s)::int, sum(x.k)::int,
    sum(x.m)::int
  FROM (
    SELECT c.id, c.created, relay_first_owner(c.id, f.assignee_id), 1, 0, 0
    FROM conversations c JOIN conversation_facts f ON f.conversation_id = c.id
    WHERE app IS NULL OR c.app_id = app
    UNION ALL
    SELECT p.conversation_id, p.created,
      relay_part_operator(p.conversation_id, p.type, p.created, p.id, p.from_admin_id, f.assignee_id), 0,
      (p.type = 'closed')::int, (p.type = 'reply_user')::int
    FROM conversation_parts p JOIN conversation_facts f ON f.conversation_id = p.conversation_id
    WHERE p.type IN ('reply_user', 'closed') AND (app IS NULL OR p.app_id = app)
  ) x(conv, t, op, s, k, m) JOIN conversations c ON c.id = x.conv
  GROUP BY 1, 2, 3, 4;
  INSERT INTO lead_quarters (app_id, at, leads)
  SELECT app_id, relay_quarter(created), count(*)::int FROM users
  WHERE is_lead AND (app IS NULL OR app_id = app)
  GROUP BY 1, 2;
$$ LANGUAGE sql;

-- As before (20261202201000), except that the facts are upserted: a row's assignee at creation is kept (it is
-- recorded nowhere else), a missing row (a bulk load with triggers off) gets relay_initial_assignee.
CREATE OR REPLACE FUNCTION relay_rebuild_reports(app bigint DEFAULT NULL) RETURNS void AS $$
BEGIN
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
    WHERE p.type = 'reply_admin' AND p.sent_via <> 'bot' AND p.created >= a.at
    ORDER BY p.conversation_id, p.created, p.id
  )
  INSERT INTO conversation_facts AS f (conversation_id, app_id, started, assignee_id, channel_id, asked_at,
    answered_at, answer_id, responder_id)
  SELECT c.id, c.app_id, c.created, relay_initial_assignee(c.id, c.assignee_id), c.channel_id, a.at, r.created,
    r.id, r.from_admin_id
  FROM conversations c LEFT JOIN asked a ON a.conversation_id = c.id LEFT JOIN answer r ON r.conversation_id = c.id
  WHERE app IS NULL OR c.app_id = app
  ON CONFLICT (conversation_id) DO UPDATE
  SET app_id = EXCLUDED.app_id, started = EXCLUDED.started, channel_id = EXCLUDED.channel_id,
    asked_at = EXCLUDED.asked_at, answered_at = EXCLUDED.answered_at, answer_id = EXCLUDED.answer_id,
    responder_id = EXCLUDED.responder_id;
  INSERT INTO conversation_closes (part_id, conversation_id, app_id, at, started)
  SELECT p.id, p.conversation_id, p.app_id, p.created, c.created
  FROM conversation_parts p JOIN conversations c ON c.id = p.conversation_id
  WHERE p.type = 'closed' AND (app IS NULL OR p.app_id = app);
  INSERT INTO conversation_admin_replies (conversation_id, admin_id, app_id, first_at, last_at, replies)
  SELECT conversation_id, from_admin_id, min(app_id), min(created), max(created), count(*)::int
  FROM conversation_parts
  WHERE type = 'reply_admin' AND sent_via <> 'bot' AND from_admin_id IS NOT NULL AND (app IS NULL OR app_id = app)
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

DROP FUNCTION relay_filter_quarter_add(bigint, timestamptz, int, int);
DROP FUNCTION relay_filter_quarters_move(bigint, timestamptz, bigint, bigint, bigint, int);

-- Backfill: the facts' assignee at creation (they held the current one), then the split rollup recomputed.
UPDATE conversation_facts f SET assignee_id = relay_initial_assignee(c.id, c.assignee_id)
FROM conversations c WHERE c.id = f.conversation_id;
DELETE FROM report_filter_quarters;
DELETE FROM lead_quarters;
SELECT relay_rebuild_report_filters();
