-- CreateTable
CREATE TABLE "bots" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "start" JSONB NOT NULL,
    "audience" JSONB,
    "sender_id" BIGINT,
    "steps" JSONB NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_runs" (
    "conversation_id" BIGINT NOT NULL,
    "bot_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "steps" JSONB NOT NULL,
    "at" TEXT,
    "state" TEXT NOT NULL DEFAULT 'running',
    "answers" JSONB NOT NULL DEFAULT '{}',
    "started" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended" TIMESTAMPTZ(6),

    CONSTRAINT "bot_runs_pkey" PRIMARY KEY ("conversation_id")
);

-- CreateIndex
CREATE INDEX "bots_app_id_status_idx" ON "bots"("app_id", "status");

-- CreateIndex
CREATE INDEX "bot_runs_bot_id_state_idx" ON "bot_runs"("bot_id", "state");

-- AddForeignKey
ALTER TABLE "bots" ADD CONSTRAINT "bots_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_runs" ADD CONSTRAINT "bot_runs_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_runs" ADD CONSTRAINT "bot_runs_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
