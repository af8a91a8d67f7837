-- Text conditions of the leads filters (contains, starts with, equals) through trigrams: the system text columns
-- that lib/search's index leaves out, and a custom prop's text through the lower-cased text of every scalar custom
-- value, one per line. A custom value containing a text makes that line contain it, so `LIKE '%text%'` on this
-- expression finds a superset of the users whose prop contains it, which the exact condition then narrows: one
-- index serves every custom prop, present and future (rejected: an index per prop, made as props appear).
CREATE OR REPLACE FUNCTION relay_props_text(p jsonb) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT string_agg(lower(e.value #>> '{}'), chr(10))
  FROM jsonb_each(CASE WHEN jsonb_typeof(p) = 'object' THEN p ELSE '{}'::jsonb END) AS e
  WHERE jsonb_typeof(e.value) IN ('string', 'number', 'boolean')
$$;

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "users_filter_trgm_idx" ON "users" USING gin (
  "initial_referrer" gin_trgm_ops, "country" gin_trgm_ops, "region" gin_trgm_ops, "city" gin_trgm_ops,
  relay_props_text("props_custom") gin_trgm_ops);
