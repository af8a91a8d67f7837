-- Data only (Prisma's schema keeps scopes as text[]). Webhooks, operators, import and export now need the new
-- app-admin scope: tokens that held every scope before it existed (what app:create, the CLI and the panel give by
-- default) get it, so that they keep doing what they did. Narrower tokens stay as their owners chose them.
UPDATE "api_tokens"
SET "scopes" = array_append("scopes", 'app-admin')
WHERE "scopes" @> ARRAY['conversations-read', 'conversations-write', 'user-read', 'user-write', 'users-list', 'as-user']::TEXT[]
  AND NOT ('app-admin' = ANY ("scopes"));
