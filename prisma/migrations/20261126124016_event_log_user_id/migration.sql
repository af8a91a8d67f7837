-- CreateIndex
CREATE INDEX "event_log_user_id_id_idx" ON "event_log"("user_id", "id");
