-- The instances' own rows (access revocations, lib/auth/revocations.ts) belong to no app: every instance tails the
-- log, so a revocation written by any process (the CLI included) reaches them all.
-- AlterTable
ALTER TABLE "event_log" ALTER COLUMN "app_id" DROP NOT NULL;
