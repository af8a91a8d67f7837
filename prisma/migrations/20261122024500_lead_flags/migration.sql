-- The lead rule as a trigger, so the stored, indexed flags change in the same statement (and transaction) as
-- whatever changes them, whichever code path writes the row. v2: name, email, phone or user ID known, web-push
-- subscribed, or any conversation; v1: the same without web-push.
CREATE OR REPLACE FUNCTION relay_users_lead_flags() RETURNS trigger AS $$
BEGIN
  NEW.is_lead_v1 := (NEW.name IS NOT NULL OR NEW.email IS NOT NULL OR NEW.phone IS NOT NULL
    OR NEW.user_id IS NOT NULL OR NEW.conversation_count > 0);
  NEW.is_lead := NEW.is_lead_v1 OR NEW.webpush_subscribed;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER users_lead_flags BEFORE INSERT OR UPDATE ON "users"
  FOR EACH ROW EXECUTE FUNCTION relay_users_lead_flags();
