-- Custom text conditions now read user_prop_values' `txt` (migration *_prop_values_text_lead), so the trigrams of
-- every custom value (relay_props_text) left the users' filter index: they were re-inserted on every update of a
-- user that is not HOT (heartbeats move `last_seen`, which is indexed), for nothing any filter reads any more. The
-- system text columns keep theirs. In a migration of its own, as its first one: the schema engine's shadow database
-- does not apply trigram indexes.
DROP INDEX "users_filter_trgm_idx";
CREATE INDEX "users_filter_trgm_idx" ON "users" USING gin (
  "initial_referrer" gin_trgm_ops, "country" gin_trgm_ops, "region" gin_trgm_ops, "city" gin_trgm_ops)
  WITH (gin_pending_list_limit = 256);
DROP FUNCTION relay_props_text(jsonb);
