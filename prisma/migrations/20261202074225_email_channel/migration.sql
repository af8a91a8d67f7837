-- AlterTable
ALTER TABLE "admins" ADD COLUMN     "email_on_assigned" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "email_on_mention" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "email_on_unread" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "email_settings" (
    "app_id" BIGINT NOT NULL,
    "sender_name" TEXT,
    "address_local" TEXT,
    "continuity_delay" INTEGER NOT NULL,
    "operator_delay" INTEGER NOT NULL DEFAULT 180,
    "continuity" BOOLEAN NOT NULL DEFAULT true,
    "operator_emails" BOOLEAN NOT NULL DEFAULT true,
    "transcripts" BOOLEAN NOT NULL DEFAULT false,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_settings_pkey" PRIMARY KEY ("app_id")
);

-- CreateTable
CREATE TABLE "email_threads" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "conversation_id" BIGINT NOT NULL,
    "recipient" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "last_part_id" BIGINT NOT NULL DEFAULT 0,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "emails" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "conversation_id" BIGINT,
    "kind" TEXT NOT NULL,
    "user_id" BIGINT,
    "admin_id" BIGINT,
    "to_address" TEXT NOT NULL,
    "to_name" TEXT NOT NULL DEFAULT '',
    "from_name" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "reply_to" TEXT,
    "message_id" TEXT NOT NULL,
    "in_reply_to" TEXT,
    "references" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "part_ids" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(6),
    "last_error" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(6),

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbound_emails" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT,
    "message_id" TEXT,
    "from_address" TEXT NOT NULL DEFAULT '',
    "recipients" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "subject" TEXT NOT NULL DEFAULT '',
    "size" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "conversation_id" BIGINT,
    "part_id" BIGINT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_emails_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_bounces" (
    "app_id" BIGINT NOT NULL,
    "address" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_bounces_pkey" PRIMARY KEY ("app_id","address")
);

-- CreateIndex
CREATE UNIQUE INDEX "email_settings_address_local_key" ON "email_settings"("address_local");

-- CreateIndex
CREATE UNIQUE INDEX "email_threads_token_key" ON "email_threads"("token");

-- CreateIndex
CREATE UNIQUE INDEX "email_threads_conversation_id_recipient_key" ON "email_threads"("conversation_id", "recipient");

-- CreateIndex
CREATE UNIQUE INDEX "emails_message_id_key" ON "emails"("message_id");

-- CreateIndex
CREATE INDEX "emails_app_id_id_idx" ON "emails"("app_id", "id" DESC);

-- CreateIndex
CREATE INDEX "emails_conversation_id_id_idx" ON "emails"("conversation_id", "id");

-- CreateIndex
CREATE INDEX "inbound_emails_conversation_id_idx" ON "inbound_emails"("conversation_id");

-- CreateIndex
CREATE INDEX "inbound_emails_from_address_created_idx" ON "inbound_emails"("from_address", "created");

-- CreateIndex
CREATE UNIQUE INDEX "inbound_emails_app_id_message_id_key" ON "inbound_emails"("app_id", "message_id");

-- AddForeignKey
ALTER TABLE "email_settings" ADD CONSTRAINT "email_settings_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_threads" ADD CONSTRAINT "email_threads_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_threads" ADD CONSTRAINT "email_threads_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbound_emails" ADD CONSTRAINT "inbound_emails_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_bounces" ADD CONSTRAINT "email_bounces_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;
