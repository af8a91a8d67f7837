-- AlterTable
ALTER TABLE "bot_runs" ADD COLUMN     "reached" JSONB NOT NULL DEFAULT '[]';

-- CreateIndex
CREATE INDEX "bot_runs_bot_id_started_idx" ON "bot_runs"("bot_id", "started");
