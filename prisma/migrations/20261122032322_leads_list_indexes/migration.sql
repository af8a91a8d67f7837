-- The leads list reads `WHERE app_id = $1 AND is_lead ORDER BY last_seen DESC NULLS LAST, id DESC LIMIT n` (never-seen
-- users last): these partial indexes serve that order directly, one per lead rule. The leads filter `str_eq` on
-- `$email` compares lower(email). Prisma's schema cannot express partial or expression indexes, and its drift check
-- does not see them (like the lead-flags trigger).
CREATE INDEX "users_leads_seen_idx" ON "users" ("app_id", "last_seen" DESC NULLS LAST, "id" DESC) WHERE "is_lead";
CREATE INDEX "users_leads_v1_seen_idx" ON "users" ("app_id", "last_seen" DESC NULLS LAST, "id" DESC) WHERE "is_lead_v1";
CREATE INDEX "users_app_id_lower_email_idx" ON "users" ("app_id", lower("email"));
