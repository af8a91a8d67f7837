-- AlterTable
ALTER TABLE "app_admins" ADD COLUMN     "last_assigned_at" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "routing" TEXT NOT NULL DEFAULT 'off',
ADD COLUMN     "routing_cap" INTEGER;
