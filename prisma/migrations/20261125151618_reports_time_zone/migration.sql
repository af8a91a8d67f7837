-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateIndex
CREATE INDEX "conversation_parts_app_id_type_created_idx" ON "conversation_parts"("app_id", "type", "created");

-- CreateIndex
CREATE INDEX "conversations_app_id_created_idx" ON "conversations"("app_id", "created");
