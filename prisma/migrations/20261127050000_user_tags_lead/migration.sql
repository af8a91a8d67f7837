-- The user's v2 lead flag on its tags, as on its typed prop rows (*_prop_values_text_lead): the number of leads with
-- a tag is then an index-only count of the tag's rows flagged `lead`, not each tagged user joined to the users.
ALTER TABLE "user_tags" ADD COLUMN "lead" BOOLEAN NOT NULL DEFAULT false;

-- A new tag takes its user's flag. Tags are written by their own statements (the API, imports, merges), not by the
-- user's, so the user's row is read FOR SHARE: a concurrent change of the flag (which holds that row until it
-- commits, and then updates the user's tags) is waited for, or waits, and neither misses the other.
CREATE OR REPLACE FUNCTION relay_user_tags_lead() RETURNS trigger AS $$
DECLARE flag boolean;
BEGIN
  SELECT u.is_lead INTO flag FROM users u WHERE u.id = NEW.user_id FOR SHARE;
  NEW.lead := coalesce(flag, false);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER user_tags_lead BEFORE INSERT ON "user_tags"
  FOR EACH ROW EXECUTE FUNCTION relay_user_tags_lead();

-- And follows the user's when it changes (a few times in a user's life).
CREATE OR REPLACE FUNCTION relay_user_tags_lead_follow() RETURNS trigger AS $$
BEGIN
  UPDATE user_tags SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER users_tags_lead AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.is_lead IS DISTINCT FROM NEW.is_lead) EXECUTE FUNCTION relay_user_tags_lead_follow();

UPDATE user_tags t SET lead = u.is_lead FROM users u WHERE u.id = t.user_id AND t.lead IS DISTINCT FROM u.is_lead;

DROP INDEX "user_tags_app_id_tag_idx";
CREATE INDEX "user_tags_app_id_tag_lead_user_id_idx" ON "user_tags"("app_id", "tag", "lead", "user_id");
