-- `known` / `unknown` on a system text column are written on `col || ''` (lib/leads/compile-system.ts
-- presenceCondition), which no index's own statistics describe: the planner took the default selectivity (0.2%)
-- for `$name` unknown, which 157k of 415k leads match at 1M, expected to read every lead to reach offset 9,980, and
-- chose a parallel scan of the table and a sort (112 ms) over the covering leads index it reads 10k entries of (7
-- ms). Expression statistics give it the column's null fraction; they cost ANALYZE a few ms each. They are filled
-- by the next analyze of the table (autovacuum's, or the bench dataset's VACUUM (ANALYZE)), not here: analyzing a
-- new database's empty table would fix its statistics at zero rows.
CREATE STATISTICS "users_name_presence_stats" ON (("name" || '')) FROM "users";
CREATE STATISTICS "users_email_presence_stats" ON (("email" || '')) FROM "users";
CREATE STATISTICS "users_phone_presence_stats" ON (("phone" || '')) FROM "users";
CREATE STATISTICS "users_avatar_presence_stats" ON (("avatar" || '')) FROM "users";
CREATE STATISTICS "users_initial_referrer_presence_stats" ON (("initial_referrer" || '')) FROM "users";
CREATE STATISTICS "users_country_presence_stats" ON (("country" || '')) FROM "users";
CREATE STATISTICS "users_region_presence_stats" ON (("region" || '')) FROM "users";
CREATE STATISTICS "users_city_presence_stats" ON (("city" || '')) FROM "users";
CREATE STATISTICS "users_user_id_presence_stats" ON (("user_id" || '')) FROM "users";
