-- New apps verify messenger identities: a user ID a page passes without its hash no longer names anyone unless
-- the owner turns verification off (lib/messenger/visitor-login.ts).
ALTER TABLE "messenger_settings" ALTER COLUMN "identity_required" SET DEFAULT true;

-- A user ID claimed without its hash is a label on the visitor, not its user_id: lookups by user ID (the site's
-- backend, imports, a verified login) must not find the claimant. Claims made before this rule held the ID itself;
-- they move to the label, and the ID is free for the user who proves it.
UPDATE "users"
SET "props_sources" = jsonb_set("props_sources", '{$user_id,claimed}', to_jsonb("user_id")),
    "user_id" = NULL
WHERE "user_id" IS NOT NULL
  AND "props_sources" -> '$user_id' ->> 'verified' = 'false';
