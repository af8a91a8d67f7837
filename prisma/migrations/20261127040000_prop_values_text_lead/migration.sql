-- Custom text and boolean conditions of the leads filters (equals, starts with, contains and their negations; true,
-- false) from the typed rows instead of every lead's JSON, and exact totals of a custom condition counted on the
-- typed rows alone.
--
-- `txt` is the lower-cased text of a string, number or boolean value, exactly what lib/leads/compile.ts's propExpr
-- reads as text and lower-cases. It is collated "C" so that one B-tree serves equality (byte equality, as under any
-- deterministic collation) and prefixes (`^@`, which PostgreSQL turns into an index range only under "C"); values
-- are at most 255 characters (lib/user-model/prop-values.ts), well inside a B-tree entry. `bool` is a JSON boolean
-- (the GIN `@>` it replaces read every match's users row).
--
-- `lead` is the user's v2 lead flag (users.is_lead). With it in the indexes, the number of leads matching one custom
-- condition is an index-only count of the prop's matching rows; without it, each match was joined to the users
-- (at 1M users, 33k matches hashed against the 415k leads: 95 ms of a 100 ms request). It changes when the user
-- becomes a lead or stops being one: a few times in a user's life, not on heartbeats or props updates.
ALTER TABLE "user_prop_values" ADD COLUMN "txt" TEXT COLLATE "C", ADD COLUMN "bool" BOOLEAN,
  ADD COLUMN "lead" BOOLEAN NOT NULL DEFAULT false;

-- The row function gains the text and the boolean (its result type changes, so it is dropped first; the functions that call it
-- resolve it when they run).
DROP FUNCTION relay_prop_rows(jsonb);
CREATE FUNCTION relay_prop_rows(p jsonb)
RETURNS TABLE (key text, num numeric, at text, txt text, bool boolean)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT e.key,
    CASE WHEN jsonb_typeof(e.value) = 'number' THEN (e.value #>> '{}')::numeric END,
    CASE WHEN jsonb_typeof(e.value) = 'string' AND (e.value #>> '{}') ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$'
      THEN e.value #>> '{}' END,
    CASE WHEN jsonb_typeof(e.value) IN ('string', 'number', 'boolean') THEN lower(e.value #>> '{}') END,
    CASE WHEN jsonb_typeof(e.value) = 'boolean' THEN e.value::boolean END
  FROM jsonb_each(CASE WHEN jsonb_typeof(p) = 'object' THEN p ELSE '{}'::jsonb END) AS e
$$;

CREATE OR REPLACE FUNCTION relay_prop_values() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM user_prop_values v
    WHERE v.user_id = NEW.id AND v.key IN (
      SELECT o.key FROM relay_prop_rows(OLD.props_custom) o
      WHERE NOT EXISTS (SELECT 1 FROM relay_prop_rows(NEW.props_custom) n WHERE n.key = o.key));
  END IF;
  INSERT INTO user_prop_values AS v (user_id, key, app_id, num, at, txt, bool, lead)
  SELECT NEW.id, n.key, NEW.app_id, n.num, n.at, n.txt, n.bool, NEW.is_lead
  FROM relay_prop_rows(NEW.props_custom) n
  WHERE TG_OP = 'INSERT' OR OLD.app_id <> NEW.app_id
    OR (CASE WHEN jsonb_typeof(OLD.props_custom) = 'object' THEN OLD.props_custom -> n.key END)
      IS DISTINCT FROM (NEW.props_custom -> n.key)
  ORDER BY n.key
  ON CONFLICT (user_id, key) DO UPDATE SET app_id = EXCLUDED.app_id, num = EXCLUDED.num, at = EXCLUDED.at,
    txt = EXCLUDED.txt, bool = EXCLUDED.bool, lead = EXCLUDED.lead;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION relay_prop_values_inserted() RETURNS trigger AS $$
BEGIN
  INSERT INTO user_prop_values AS v (user_id, key, app_id, num, at, txt, bool, lead)
  SELECT n.id, r.key, n.app_id, r.num, r.at, r.txt, r.bool, n.is_lead
  FROM inserted n CROSS JOIN LATERAL relay_prop_rows(n.props_custom) r
  WHERE n.props_custom IS DISTINCT FROM '{}'::jsonb
  ORDER BY 1, 2
  ON CONFLICT (user_id, key) DO UPDATE SET app_id = EXCLUDED.app_id, num = EXCLUDED.num, at = EXCLUDED.at,
    txt = EXCLUDED.txt, bool = EXCLUDED.bool, lead = EXCLUDED.lead;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- The flag follows the user's. When props change in the same statement, relay_prop_values writes the same value.
CREATE OR REPLACE FUNCTION relay_prop_values_lead() RETURNS trigger AS $$
BEGIN
  UPDATE user_prop_values SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER users_prop_values_lead AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.is_lead IS DISTINCT FROM NEW.is_lead) EXECUTE FUNCTION relay_prop_values_lead();

CREATE OR REPLACE FUNCTION relay_rebuild_prop_values() RETURNS void AS $$
  DELETE FROM user_prop_values;
  INSERT INTO user_prop_values (user_id, key, app_id, num, at, txt, bool, lead)
  SELECT u.id, r.key, u.app_id, r.num, r.at, r.txt, r.bool, u.is_lead
  FROM users u, relay_prop_rows(u.props_custom) r
  WHERE u.props_custom IS DISTINCT FROM '{}'::jsonb;
$$ LANGUAGE sql;

-- The indexes are made after the rows, at once.
DROP INDEX "user_prop_values_app_id_key_num_user_id_idx";
DROP INDEX "user_prop_values_at_idx";
SELECT relay_rebuild_prop_values();

-- Numbers, and every row of a prop (`known`, `unknown`): in schema.prisma, with user_id and lead as key columns
-- (Prisma has no INCLUDE). Dates, texts and booleans: partial, so written here (Prisma leaves a partial index alone).
CREATE INDEX "user_prop_values_app_id_key_num_user_id_lead_idx"
  ON "user_prop_values"("app_id", "key", "num", "user_id", "lead");
CREATE INDEX "user_prop_values_at_idx" ON "user_prop_values" ("app_id", "key", "at") INCLUDE ("user_id", "lead")
  WHERE "at" IS NOT NULL;
CREATE INDEX "user_prop_values_txt_idx" ON "user_prop_values" ("app_id", "key", "txt") INCLUDE ("user_id", "lead")
  WHERE "txt" IS NOT NULL;
CREATE INDEX "user_prop_values_bool_idx" ON "user_prop_values" ("app_id", "key", "bool") INCLUDE ("user_id", "lead")
  WHERE "bool" IS NOT NULL;
