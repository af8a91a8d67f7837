-- A bot's messages (sent_via 'bot') are no answer and no operator's reply wherever the rollups are computed from the
-- parts, not only on insert (20261202162800): a conversation's refresh after a part is rewritten, the answer looked
-- up when a visitor's message is written with an earlier time, and a full rebuild.
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
    WHERE p.conversation_id = conv AND p.type = 'reply_admin' AND p.sent_via <> 'bot' AND p.created >= q.asked
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
  WHERE conversation_id = conv AND type = 'reply_admin' AND sent_via <> 'bot' AND from_admin_id IS NOT NULL
  GROUP BY 1, 2;
END;
$$ LANGUAGE plpgsql;

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
        WHERE p.conversation_id = f.conversation_id AND p.type = 'reply_admin' AND p.sent_via <> 'bot' AND p.created >= f.asked_at
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
    WHERE p.type = 'reply_admin' AND p.sent_via <> 'bot' AND p.created >= a.at
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
