-- AlterTable
ALTER TABLE "app_admins" ADD COLUMN     "availability" TEXT NOT NULL DEFAULT 'available',
ADD COLUMN     "availability_changed" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "last_active" TIMESTAMPTZ(6);
