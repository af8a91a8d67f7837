-- Custom list conditions (`list_contains`, `list_ncontains`) from one row per string item of a list value, with the
-- user's v2 lead flag: the leads whose list holds an item are an index-only count of the item's rows flagged `lead`
-- (and those whose list does not, the leads minus it), and a deep page walks the leads against a hash of them, as
-- for the typed rows (*_prop_values_text_lead). The GIN `@>` on props_custom read each match's users row. `@>`
-- compares items byte for byte, so the item is stored as it is, collated "C" (equality is byte equality, the
-- fastest comparison). Lists hold at most 30 strings of at most 255 characters (lib/user-model/prop-values.ts).
CREATE TABLE "user_prop_items" (
    "user_id" BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "item" TEXT COLLATE "C" NOT NULL,
    "app_id" BIGINT NOT NULL,
    "lead" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "user_prop_items_pkey" PRIMARY KEY ("user_id","key","item")
);

ALTER TABLE "user_prop_items" ADD CONSTRAINT "user_prop_items_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The string items of each list value, as `@>` with a one-string list matches them: direct elements of an array.
CREATE FUNCTION relay_prop_items(p jsonb)
RETURNS TABLE (key text, item text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT e.key, x.value #>> '{}'
  FROM jsonb_each(CASE WHEN jsonb_typeof(p) = 'object' THEN p ELSE '{}'::jsonb END) AS e
  CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(e.value) = 'array' THEN e.value ELSE '[]'::jsonb END) x
  WHERE jsonb_typeof(x.value) = 'string'
$$;

-- relay_prop_values (the row trigger on a change of props_custom or app_id) also rewrites the items of the keys
-- whose value changed: removed where the old value was a list, written where the new one is.
CREATE OR REPLACE FUNCTION relay_prop_values() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM user_prop_values v
    WHERE v.user_id = NEW.id AND v.key IN (
      SELECT o.key FROM relay_prop_rows(OLD.props_custom) o
      WHERE NOT EXISTS (SELECT 1 FROM relay_prop_rows(NEW.props_custom) n WHERE n.key = o.key));
    DELETE FROM user_prop_items i
    WHERE i.user_id = NEW.id AND i.key IN (
      SELECT o.key FROM relay_prop_items(OLD.props_custom) o
      WHERE OLD.app_id <> NEW.app_id
        OR (OLD.props_custom -> o.key) IS DISTINCT FROM
          (CASE WHEN jsonb_typeof(NEW.props_custom) = 'object' THEN NEW.props_custom -> o.key END));
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
  INSERT INTO user_prop_items (user_id, key, item, app_id, lead)
  SELECT NEW.id, n.key, n.item, NEW.app_id, NEW.is_lead
  FROM relay_prop_items(NEW.props_custom) n
  WHERE TG_OP = 'INSERT' OR OLD.app_id <> NEW.app_id
    OR (CASE WHEN jsonb_typeof(OLD.props_custom) = 'object' THEN OLD.props_custom -> n.key END)
      IS DISTINCT FROM (NEW.props_custom -> n.key)
  ORDER BY n.key, n.item
  ON CONFLICT DO NOTHING;
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
  INSERT INTO user_prop_items (user_id, key, item, app_id, lead)
  SELECT n.id, r.key, r.item, n.app_id, n.is_lead
  FROM inserted n CROSS JOIN LATERAL relay_prop_items(n.props_custom) r
  WHERE n.props_custom IS DISTINCT FROM '{}'::jsonb
  ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION relay_lead_follow() RETURNS trigger AS $$
BEGIN
  UPDATE user_prop_values SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  UPDATE user_prop_items SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  UPDATE user_tags SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  UPDATE user_event_summaries SET lead = NEW.is_lead WHERE user_id = NEW.id AND lead IS DISTINCT FROM NEW.is_lead;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION relay_rebuild_prop_values() RETURNS void AS $$
  DELETE FROM user_prop_values;
  INSERT INTO user_prop_values (user_id, key, app_id, num, at, txt, bool, lead)
  SELECT u.id, r.key, u.app_id, r.num, r.at, r.txt, r.bool, u.is_lead
  FROM users u, relay_prop_rows(u.props_custom) r
  WHERE u.props_custom IS DISTINCT FROM '{}'::jsonb;
  DELETE FROM user_prop_items;
  INSERT INTO user_prop_items (user_id, key, item, app_id, lead)
  SELECT u.id, r.key, r.item, u.app_id, u.is_lead
  FROM users u, relay_prop_items(u.props_custom) r
  WHERE u.props_custom IS DISTINCT FROM '{}'::jsonb;
$$ LANGUAGE sql;

INSERT INTO user_prop_items (user_id, key, item, app_id, lead)
SELECT u.id, r.key, r.item, u.app_id, u.is_lead
FROM users u, relay_prop_items(u.props_custom) r
WHERE u.props_custom IS DISTINCT FROM '{}'::jsonb;

CREATE INDEX "user_prop_items_app_id_key_item_lead_user_id_idx" ON "user_prop_items"("app_id", "key", "item", "lead", "user_id");

-- The GIN on props_custom served `@>`, which no filter reads any more (booleans from user_prop_values.bool, lists
-- from these rows), while every non-HOT users update wrote its entries.
DROP INDEX "users_props_custom_idx";
