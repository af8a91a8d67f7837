-- Leads filters on system props (#20) whose exact `total` was a count of every lead: partial indexes over the
-- leads alone, so that the count reads only the matching entries and the page is found in the same index.
-- - Country and city (few values, filtered by equals and starts with): keyed by the lower-cased value under the
--   "C" collation (byte order, so that `starts_with` becomes a range on it; equality is the same under any
--   deterministic collation), then the list's sort, so an equals condition reads its page directly. The column
--   itself is included so that the condition's `IS NOT NULL` keeps the scan index-only; sessions, so that the
--   common "country, sessions, last seen" filter is answered from the country index alone.
-- - Sessions: keyed by sessions then the list's sort (an equals condition reads its page directly).
-- - Last contacted and last reply, set on a minority of leads: only the leads that have one.
-- Each is one more index entry per lead row version (a heartbeat's update already writes every index, as
-- last_seen is indexed); none for the users who are not leads. Written by hand: Prisma's schema cannot express
-- partial or expression indexes, and its drift check does not see them (see 20261122032322).
CREATE INDEX "users_leads_country_idx" ON "users" ("app_id", (lower("country") COLLATE "C"), "last_seen" DESC NULLS LAST, "id" DESC)
  INCLUDE ("country", "sessions") WHERE "is_lead";
CREATE INDEX "users_leads_city_idx" ON "users" ("app_id", (lower("city") COLLATE "C"), "last_seen" DESC NULLS LAST, "id" DESC)
  INCLUDE ("city") WHERE "is_lead";
CREATE INDEX "users_leads_sessions_idx" ON "users" ("app_id", "sessions", "last_seen" DESC NULLS LAST, "id" DESC)
  WHERE "is_lead";
CREATE INDEX "users_leads_contacted_idx" ON "users" ("app_id", "last_contacted") INCLUDE ("last_seen", "id")
  WHERE "is_lead" AND "last_contacted" IS NOT NULL;
CREATE INDEX "users_leads_replied_idx" ON "users" ("app_id", "last_reply") INCLUDE ("last_seen", "id")
  WHERE "is_lead" AND "last_reply" IS NOT NULL;
