-- Each lead's sort key by its ID (lib/leads/typed-walk.ts PROBE_PER_MATCH): a deep page of one side-table condition
-- with few matches probes each match here, index-only, and sorts them, rather than walking the leads index until the
-- page (event `first` before a date, 13.5k matches at 1M, offset 9,980: 78–92 → 40–46 ms). The app is included so
-- the probe reads no row. One more entry per lead heartbeat, which moves `last_seen`: the update is not HOT already
-- (users_leads_seen_idx holds `last_seen`), so it adds one index insert to the several it has.
CREATE INDEX "users_leads_id_seen_idx" ON "users" ("id") INCLUDE ("app_id", "last_seen") WHERE "is_lead";
