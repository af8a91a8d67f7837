-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "message_interval_seconds" INTEGER NOT NULL DEFAULT 60;

-- CreateTable
CREATE TABLE "auto_messages" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "content" JSONB NOT NULL,
    "trigger" JSONB NOT NULL,
    "audience" JSONB,
    "timeout_seconds" INTEGER NOT NULL DEFAULT 0,
    "frequency" JSONB NOT NULL,
    "schedule" JSONB,
    "goal" JSONB,
    "control_percent" INTEGER NOT NULL DEFAULT 0,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auto_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_sends" (
    "id" BIGSERIAL NOT NULL,
    "message_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "trigger_event_id" BIGINT NOT NULL,
    "control" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'scheduled',
    "reason" TEXT,
    "due_at" TIMESTAMPTZ(6) NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(6),
    "read_at" TIMESTAMPTZ(6),
    "clicked_at" TIMESTAMPTZ(6),
    "replied_at" TIMESTAMPTZ(6),
    "unsubscribed_at" TIMESTAMPTZ(6),
    "goal_at" TIMESTAMPTZ(6),
    "conversation_id" BIGINT,

    CONSTRAINT "message_sends_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_stats" (
    "message_id" BIGINT NOT NULL,
    "day" DATE NOT NULL,
    "control" BOOLEAN NOT NULL,
    "kind" TEXT NOT NULL,
    "n" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "message_stats_pkey" PRIMARY KEY ("message_id","day","control","kind")
);

-- CreateTable
CREATE TABLE "log_cursors" (
    "name" TEXT NOT NULL,
    "position" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "log_cursors_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "auto_messages_app_id_status_idx" ON "auto_messages"("app_id", "status");

-- CreateIndex
CREATE INDEX "message_sends_message_id_user_id_created_idx" ON "message_sends"("message_id", "user_id", "created" DESC);

-- CreateIndex
CREATE INDEX "message_sends_user_id_sent_at_idx" ON "message_sends"("user_id", "sent_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "message_sends_message_id_trigger_event_id_key" ON "message_sends"("message_id", "trigger_event_id");

-- AddForeignKey
ALTER TABLE "auto_messages" ADD CONSTRAINT "auto_messages_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_sends" ADD CONSTRAINT "message_sends_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "auto_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_sends" ADD CONSTRAINT "message_sends_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_stats" ADD CONSTRAINT "message_stats_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "auto_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The messages' consumer starts at the log's end: events before messages existed trigger nothing.
INSERT INTO "log_cursors" ("name", "position") SELECT 'messages', COALESCE(max(id), 0) FROM "event_log";
