-- AlterTable
ALTER TABLE "event_log" ADD COLUMN     "user_id" BIGINT;
