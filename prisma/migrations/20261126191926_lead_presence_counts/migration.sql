-- AlterTable
ALTER TABLE "lead_counts" ADD COLUMN     "emailed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "emailed_v1" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "named" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "named_v1" INTEGER NOT NULL DEFAULT 0;

-- Beside each rule's lead count, its leads with a name and with an email, so `$name`/`$email` known or unknown as a
-- filter's only condition is an exact count read from here (lib/leads/complement.ts): at 1M users no index is
-- narrower than the leads (318k have an email), and counting them walked every lead. Known is `col IS NOT NULL`, as
-- compiled (presenceCondition): '' and whitespace are known. A name or email makes a user a lead under both rules
-- today, so named and named_v1 agree; counting each within its rule keeps them right if the rule changes.
CREATE OR REPLACE FUNCTION relay_lead_counts() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
    RETURN NULL;
  END IF;
  INSERT INTO lead_counts AS k (app_id, leads, leads_v1, named, named_v1, emailed, emailed_v1)
  SELECT s.* FROM (
    SELECT d.app_id, sum(d.l)::int, sum(d.l1)::int, sum(d.l * d.n)::int, sum(d.l1 * d.n)::int,
      sum(d.l * d.e)::int, sum(d.l1 * d.e)::int
    FROM (
      SELECT OLD.app_id, -OLD.is_lead::int, -OLD.is_lead_v1::int, (OLD.name IS NOT NULL)::int,
        (OLD.email IS NOT NULL)::int
      WHERE TG_OP <> 'INSERT'
      UNION ALL
      SELECT NEW.app_id, NEW.is_lead::int, NEW.is_lead_v1::int, (NEW.name IS NOT NULL)::int,
        (NEW.email IS NOT NULL)::int
      WHERE TG_OP <> 'DELETE'
    ) AS d(app_id, l, l1, n, e)
    GROUP BY 1
  ) AS s(app_id, l, l1, n, n1, e, e1)
  WHERE (s.l, s.l1, s.n, s.n1, s.e, s.e1) <> (0, 0, 0, 0, 0, 0)
  ORDER BY 1
  ON CONFLICT (app_id) DO UPDATE SET leads = k.leads + EXCLUDED.leads, leads_v1 = k.leads_v1 + EXCLUDED.leads_v1,
    named = k.named + EXCLUDED.named, named_v1 = k.named_v1 + EXCLUDED.named_v1,
    emailed = k.emailed + EXCLUDED.emailed, emailed_v1 = k.emailed_v1 + EXCLUDED.emailed_v1;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- An update now also counts when a name or email appears or goes without the lead flags changing (a lead by user ID
-- giving a name). Still in the WHEN clause, outside PL/pgSQL: the heartbeat's and props' writes pay nothing. The
-- insert and delete triggers stay as they were: they already fire for every lead, and only leads are counted.
DROP TRIGGER users_lead_counts_update ON "users";
CREATE TRIGGER users_lead_counts_update AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.is_lead IS DISTINCT FROM NEW.is_lead OR OLD.is_lead_v1 IS DISTINCT FROM NEW.is_lead_v1
    OR (OLD.name IS NULL) <> (NEW.name IS NULL) OR (OLD.email IS NULL) <> (NEW.email IS NULL)
    OR (OLD.app_id <> NEW.app_id AND (OLD.is_lead OR OLD.is_lead_v1)))
  EXECUTE FUNCTION relay_lead_counts();

CREATE OR REPLACE FUNCTION relay_recount_leads() RETURNS void AS $$
  DELETE FROM lead_counts;
  INSERT INTO lead_counts (app_id, leads, leads_v1, named, named_v1, emailed, emailed_v1)
  SELECT app_id, count(*) FILTER (WHERE is_lead)::int, count(*) FILTER (WHERE is_lead_v1)::int,
    count(*) FILTER (WHERE is_lead AND name IS NOT NULL)::int,
    count(*) FILTER (WHERE is_lead_v1 AND name IS NOT NULL)::int,
    count(*) FILTER (WHERE is_lead AND email IS NOT NULL)::int,
    count(*) FILTER (WHERE is_lead_v1 AND email IS NOT NULL)::int
  FROM users WHERE is_lead OR is_lead_v1 GROUP BY 1;
$$ LANGUAGE sql;

SELECT relay_recount_leads();
