-- CreateTable
CREATE TABLE "user_prop_values" (
    "user_id" BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "num" DECIMAL,
    "at" TEXT,

    CONSTRAINT "user_prop_values_pkey" PRIMARY KEY ("user_id","key")
);

-- AddForeignKey
ALTER TABLE "user_prop_values" ADD CONSTRAINT "user_prop_values_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Custom props typed for the leads filters (written by hand: Prisma's schema has no triggers or INCLUDE). A prop's
-- row holds its number when the JSON value is a number, and its text when the value is a canonical UTC date-time
-- string (which orders like the time it names): exactly what lib/leads/compile.ts's propExpr reads from the JSON.
-- Every present key has a row (a `known` condition is a range of the index), whatever its type.
CREATE OR REPLACE FUNCTION relay_prop_rows(p jsonb)
RETURNS TABLE (key text, num numeric, at text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT e.key,
    CASE WHEN jsonb_typeof(e.value) = 'number' THEN (e.value #>> '{}')::numeric END,
    CASE WHEN jsonb_typeof(e.value) = 'string' AND (e.value #>> '{}') ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$'
      THEN e.value #>> '{}' END
  FROM jsonb_each(CASE WHEN jsonb_typeof(p) = 'object' THEN p ELSE '{}'::jsonb END) AS e
$$;

-- Kept in the writing statement from the diff of the old and new props: a props update writes only the keys it
-- changed (or all of them when the user changes app) and deletes only the keys it removed. The WHEN clauses are
-- evaluated without entering PL/pgSQL, so the user writes that leave props alone (heartbeats) cost nothing more.
-- A deleted user's rows go by the foreign key's cascade.
CREATE OR REPLACE FUNCTION relay_prop_values() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM user_prop_values v
    WHERE v.user_id = NEW.id AND v.key IN (
      SELECT o.key FROM relay_prop_rows(OLD.props_custom) o
      WHERE NOT EXISTS (SELECT 1 FROM relay_prop_rows(NEW.props_custom) n WHERE n.key = o.key));
  END IF;
  INSERT INTO user_prop_values AS v (user_id, key, app_id, num, at)
  SELECT NEW.id, n.key, NEW.app_id, n.num, n.at
  FROM relay_prop_rows(NEW.props_custom) n
  WHERE TG_OP = 'INSERT' OR OLD.app_id <> NEW.app_id
    OR (CASE WHEN jsonb_typeof(OLD.props_custom) = 'object' THEN OLD.props_custom -> n.key END)
      IS DISTINCT FROM (NEW.props_custom -> n.key)
  ORDER BY n.key
  ON CONFLICT (user_id, key) DO UPDATE SET app_id = EXCLUDED.app_id, num = EXCLUDED.num, at = EXCLUDED.at;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER users_prop_values_insert AFTER INSERT ON "users"
  FOR EACH ROW WHEN (NEW.props_custom IS DISTINCT FROM '{}'::jsonb) EXECUTE FUNCTION relay_prop_values();
CREATE TRIGGER users_prop_values_update AFTER UPDATE OF "props_custom", "app_id" ON "users"
  FOR EACH ROW WHEN (OLD.props_custom IS DISTINCT FROM NEW.props_custom OR OLD.app_id <> NEW.app_id)
  EXECUTE FUNCTION relay_prop_values();

-- The rows rebuilt from the users: for the users written before the trigger, and for bulk loads that run with
-- triggers off (the benchmark dataset).
CREATE OR REPLACE FUNCTION relay_rebuild_prop_values() RETURNS void AS $$
  DELETE FROM user_prop_values;
  INSERT INTO user_prop_values (user_id, key, app_id, num, at)
  SELECT u.id, r.key, u.app_id, r.num, r.at
  FROM users u, relay_prop_rows(u.props_custom) r
  WHERE u.props_custom IS DISTINCT FROM '{}'::jsonb;
$$ LANGUAGE sql;

SELECT relay_rebuild_prop_values();

-- Conditions are `u.id IN (SELECT user_id … WHERE app_id = $1 AND key = $2 AND num|at …)`: an index-only range
-- that is then joined to the leads. `known` is the (app_id, key) prefix of the num index (in schema.prisma, with
-- user_id as its last column: Prisma has no INCLUDE and would drop one; a partial index it leaves alone).
CREATE INDEX "user_prop_values_app_id_key_num_user_id_idx" ON "user_prop_values"("app_id", "key", "num", "user_id");
CREATE INDEX "user_prop_values_at_idx" ON "user_prop_values" ("app_id", "key", "at") INCLUDE ("user_id")
  WHERE "at" IS NOT NULL;
