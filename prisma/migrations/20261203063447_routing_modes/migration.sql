-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "assign_on_reply" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "routing_last_admin_id" BIGINT;

-- AlterTable
ALTER TABLE "channels" ADD COLUMN     "routing_last_admin_id" BIGINT;

-- "round_robin" used to mean fewest open first, which is now "balanced": existing apps keep what they had.
UPDATE "apps" SET "routing" = 'balanced' WHERE "routing" = 'round_robin';
