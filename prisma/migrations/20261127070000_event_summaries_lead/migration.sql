-- The user's v2 lead flag on its event summaries, as on its typed prop rows (*_prop_values_text_lead) and tags
-- (*_user_tags_lead): the number of leads whose summary of a type matches (`$event_<id>_count` ≥ 2) is then an
-- index-only count of the type's rows flagged `lead`, not each matching user joined to the users, and a page sorted
-- by the summary is read from its index in order.
ALTER TABLE "user_event_summaries" ADD COLUMN "lead" BOOLEAN NOT NULL DEFAULT false;

-- A new summary takes its user's flag, as a new tag does (the tags' trigger function, renamed for both); an event
-- of a type the user has done before updates the row, which keeps its flag. The user's row is read FOR SHARE, so a
-- concurrent change of the flag is waited for or waits. Event ingest (lib/events/track-grouped.ts) already holds
-- that lock, taken before any summary, so the check costs it no wait of its own and no lock order it did not have.
ALTER FUNCTION relay_user_tags_lead() RENAME TO relay_new_row_lead;

CREATE TRIGGER user_event_summaries_lead BEFORE INSERT ON "user_event_summaries"
  FOR EACH ROW EXECUTE FUNCTION relay_new_row_lead();

-- One users trigger follows a change of the flag on every side table that carries it (it replaces the two of the
-- prop rows and the tags).
DROP TRIGGER "users_prop_values_lead" ON "users";
DROP FUNCTION relay_prop_values_lead();
DROP TRIGGER "users_tags_lead" ON "users";
DROP FUNCTION relay_user_tags_lead_follow();

CREATE OR REPLACE FUNCTION relay_lead_follow() RETURNS trigger AS $$
BEGIN
  UPDATE user_prop_values SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  UPDATE user_tags SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  UPDATE user_event_summaries SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER users_lead_follow AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.is_lead IS DISTINCT FROM NEW.is_lead) EXECUTE FUNCTION relay_lead_follow();

UPDATE user_event_summaries s SET lead = u.is_lead FROM users u
  WHERE u.id = s.user_id AND s.lead IS DISTINCT FROM u.is_lead;

-- The flag after the value: a range of the value still bounds the scan when the flag is not asked (v1, or under an
-- `and`), and with `lead = TRUE` asked, the rows come in (value, user_id) order, a page sorted by the value.
DROP INDEX "user_event_summaries_event_type_id_count_idx";
DROP INDEX "user_event_summaries_event_type_id_first_idx";
DROP INDEX "user_event_summaries_event_type_id_last_idx";
CREATE INDEX "user_event_summaries_event_type_id_count_lead_user_id_idx"
  ON "user_event_summaries"("event_type_id", "count", "lead", "user_id");
CREATE INDEX "user_event_summaries_event_type_id_first_lead_user_id_idx"
  ON "user_event_summaries"("event_type_id", "first", "lead", "user_id");
CREATE INDEX "user_event_summaries_event_type_id_last_lead_user_id_idx"
  ON "user_event_summaries"("event_type_id", "last", "lead", "user_id");
