-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "office_hours" JSONB;
