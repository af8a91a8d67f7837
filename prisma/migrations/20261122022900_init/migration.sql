-- CreateTable
CREATE TABLE "apps" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "default_admin_id" BIGINT,
    "settings" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "apps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "admins" (
    "id" BIGSERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "avatar" TEXT NOT NULL DEFAULT '',
    "password_hash" TEXT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_admins" (
    "app_id" BIGINT NOT NULL,
    "admin_id" BIGINT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'operator',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_admins_pkey" PRIMARY KEY ("app_id","admin_id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "token_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "scopes" TEXT[],
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),
    "created_by_id" BIGINT,

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" BIGSERIAL NOT NULL,
    "admin_id" BIGINT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires" TIMESTAMPTZ(6) NOT NULL,
    "last_seen" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channels" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'manual',
    "avatar" TEXT NOT NULL DEFAULT '',
    "droppable" BOOLEAN NOT NULL DEFAULT false,
    "read_permission" JSONB,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "user_id" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "presence" TEXT NOT NULL DEFAULT 'offline',
    "last_heartbeat" TIMESTAMPTZ(6),
    "presence_details" JSONB NOT NULL DEFAULT '{}',
    "name" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "avatar" TEXT,
    "initial_referrer" TEXT,
    "country" TEXT,
    "region" TEXT,
    "city" TEXT,
    "sessions" INTEGER NOT NULL DEFAULT 0,
    "last_seen" TIMESTAMPTZ(6),
    "last_contacted" TIMESTAMPTZ(6),
    "last_reply" TIMESTAMPTZ(6),
    "props_custom" JSONB NOT NULL DEFAULT '{}',
    "is_lead" BOOLEAN NOT NULL DEFAULT false,
    "is_lead_v1" BOOLEAN NOT NULL DEFAULT false,
    "email_status" TEXT NOT NULL DEFAULT 'subscribed',
    "webpush_subscribed" BOOLEAN NOT NULL DEFAULT false,
    "timezone_offset" INTEGER,
    "conversation_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_types" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "score" INTEGER NOT NULL DEFAULT 0,
    "visible" BOOLEAN NOT NULL DEFAULT true,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "type_id" BIGINT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "props" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_event_summaries" (
    "user_id" BIGINT NOT NULL,
    "event_type_id" BIGINT NOT NULL,
    "first" TIMESTAMPTZ(6) NOT NULL,
    "last" TIMESTAMPTZ(6) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "user_event_summaries_pkey" PRIMARY KEY ("user_id","event_type_id")
);

-- CreateTable
CREATE TABLE "segments" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "filters" JSONB NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "segments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_notes" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "admin_id" BIGINT,
    "body" TEXT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_tags" (
    "user_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "tag" TEXT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_tags_pkey" PRIMARY KEY ("user_id","tag")
);

-- CreateTable
CREATE TABLE "conversations" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "channel_id" BIGINT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_update" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read" BOOLEAN NOT NULL DEFAULT true,
    "replied" BOOLEAN NOT NULL DEFAULT false,
    "clicked" BOOLEAN NOT NULL DEFAULT false,
    "unsubscribed" BOOLEAN NOT NULL DEFAULT false,
    "closed" BOOLEAN NOT NULL DEFAULT false,
    "message" JSONB,
    "type" TEXT NOT NULL DEFAULT 'popup_chat',
    "reply_type" TEXT NOT NULL DEFAULT 'text',
    "parts_count" INTEGER NOT NULL DEFAULT 0,
    "unread_parts_count" INTEGER NOT NULL DEFAULT 0,
    "assignee_id" BIGINT,
    "last_admin_id" BIGINT,
    "delayed_until" TIMESTAMPTZ(6),
    "assistant_type" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "has_user_replies" BOOLEAN NOT NULL DEFAULT false,
    "answered" BOOLEAN NOT NULL DEFAULT false,
    "part_last_id" BIGINT,
    "important_part_last_id" BIGINT,
    "reply_last_id" BIGINT,

    CONSTRAINT "conversations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_parts" (
    "id" BIGSERIAL NOT NULL,
    "conversation_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "body" TEXT NOT NULL DEFAULT '',
    "body_json" JSONB NOT NULL DEFAULT '{}',
    "read" BOOLEAN NOT NULL DEFAULT false,
    "direction" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "sent_via" TEXT NOT NULL DEFAULT 'api',
    "meta_data" JSONB NOT NULL DEFAULT '{}',
    "reply_type" TEXT NOT NULL DEFAULT 'no',
    "actions" JSONB,
    "edited" JSONB,
    "removed" JSONB,
    "external_id" TEXT,
    "part_group" BIGINT NOT NULL,
    "random_id" BIGINT NOT NULL DEFAULT 0,
    "referrer" TEXT,
    "from_admin_id" BIGINT,
    "from_user_id" BIGINT,
    "assignee_id" BIGINT,

    CONSTRAINT "conversation_parts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attachments" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "part_id" BIGINT,
    "type" TEXT NOT NULL DEFAULT 'file',
    "filename" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_subscriptions" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "subscription_id" BIGINT NOT NULL,
    "event_id" BIGINT,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(6) DEFAULT CURRENT_TIMESTAMP,
    "last_response_code" INTEGER,
    "last_error" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_log" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "channel" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_jobs" (
    "id" BIGSERIAL NOT NULL,
    "app_id" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "merge_field" TEXT NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "total_bytes" BIGINT NOT NULL DEFAULT 0,
    "processed_bytes" BIGINT NOT NULL DEFAULT 0,
    "rows_processed" INTEGER NOT NULL DEFAULT 0,
    "rows_imported" INTEGER NOT NULL DEFAULT 0,
    "row_errors" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished" TIMESTAMPTZ(6),

    CONSTRAINT "import_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "admins_email_key" ON "admins"("email");

-- CreateIndex
CREATE INDEX "app_admins_admin_id_idx" ON "app_admins"("admin_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_app_id_idx" ON "api_tokens"("app_id");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");

-- CreateIndex
CREATE INDEX "sessions_admin_id_idx" ON "sessions"("admin_id");

-- CreateIndex
CREATE INDEX "sessions_expires_idx" ON "sessions"("expires");

-- CreateIndex
CREATE INDEX "channels_app_id_idx" ON "channels"("app_id");

-- CreateIndex
CREATE INDEX "users_app_id_is_lead_last_seen_id_idx" ON "users"("app_id", "is_lead", "last_seen" DESC, "id");

-- CreateIndex
CREATE INDEX "users_app_id_is_lead_v1_last_seen_id_idx" ON "users"("app_id", "is_lead_v1", "last_seen" DESC, "id");

-- CreateIndex
CREATE INDEX "users_app_id_email_idx" ON "users"("app_id", "email");

-- CreateIndex
CREATE INDEX "users_app_id_phone_idx" ON "users"("app_id", "phone");

-- CreateIndex
CREATE INDEX "users_app_id_presence_idx" ON "users"("app_id", "presence");

-- CreateIndex
CREATE INDEX "users_props_custom_idx" ON "users" USING GIN ("props_custom" jsonb_path_ops);

-- CreateIndex
CREATE UNIQUE INDEX "users_app_id_user_id_key" ON "users"("app_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "event_types_app_id_name_key" ON "event_types"("app_id", "name");

-- CreateIndex
CREATE INDEX "events_user_id_id_idx" ON "events"("user_id", "id" DESC);

-- CreateIndex
CREATE INDEX "events_user_id_type_id_id_idx" ON "events"("user_id", "type_id", "id" DESC);

-- CreateIndex
CREATE INDEX "events_app_id_idx" ON "events"("app_id");

-- CreateIndex
CREATE INDEX "user_event_summaries_event_type_id_count_idx" ON "user_event_summaries"("event_type_id", "count");

-- CreateIndex
CREATE INDEX "segments_app_id_idx" ON "segments"("app_id");

-- CreateIndex
CREATE INDEX "user_notes_user_id_id_idx" ON "user_notes"("user_id", "id");

-- CreateIndex
CREATE INDEX "user_tags_app_id_tag_idx" ON "user_tags"("app_id", "tag");

-- CreateIndex
CREATE INDEX "conversations_app_id_last_update_id_idx" ON "conversations"("app_id", "last_update" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "conversations_app_id_closed_last_update_id_idx" ON "conversations"("app_id", "closed", "last_update" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "conversations_app_id_assignee_id_last_update_idx" ON "conversations"("app_id", "assignee_id", "last_update" DESC);

-- CreateIndex
CREATE INDEX "conversations_user_id_last_update_id_idx" ON "conversations"("user_id", "last_update" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "conversations_tags_idx" ON "conversations" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "conversation_parts_conversation_id_id_idx" ON "conversation_parts"("conversation_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "conversation_parts_conversation_id_external_id_key" ON "conversation_parts"("conversation_id", "external_id");

-- CreateIndex
CREATE INDEX "attachments_part_id_idx" ON "attachments"("part_id");

-- CreateIndex
CREATE INDEX "webhook_subscriptions_app_id_idx" ON "webhook_subscriptions"("app_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_subscription_id_id_idx" ON "webhook_deliveries"("subscription_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_subscription_id_event_id_key" ON "webhook_deliveries"("subscription_id", "event_id");

-- CreateIndex
CREATE INDEX "event_log_channel_id_idx" ON "event_log"("channel", "id");

-- CreateIndex
CREATE INDEX "event_log_created_idx" ON "event_log"("created");

-- CreateIndex
CREATE INDEX "import_jobs_app_id_id_idx" ON "import_jobs"("app_id", "id");

-- AddForeignKey
ALTER TABLE "apps" ADD CONSTRAINT "apps_default_admin_id_fkey" FOREIGN KEY ("default_admin_id") REFERENCES "admins"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_admins" ADD CONSTRAINT "app_admins_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_admins" ADD CONSTRAINT "app_admins_admin_id_fkey" FOREIGN KEY ("admin_id") REFERENCES "admins"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "admins"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_admin_id_fkey" FOREIGN KEY ("admin_id") REFERENCES "admins"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channels" ADD CONSTRAINT "channels_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_types" ADD CONSTRAINT "event_types_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_type_id_fkey" FOREIGN KEY ("type_id") REFERENCES "event_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_event_summaries" ADD CONSTRAINT "user_event_summaries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_event_summaries" ADD CONSTRAINT "user_event_summaries_event_type_id_fkey" FOREIGN KEY ("event_type_id") REFERENCES "event_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "segments" ADD CONSTRAINT "segments_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_notes" ADD CONSTRAINT "user_notes_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_notes" ADD CONSTRAINT "user_notes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_notes" ADD CONSTRAINT "user_notes_admin_id_fkey" FOREIGN KEY ("admin_id") REFERENCES "admins"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_tags" ADD CONSTRAINT "user_tags_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_tags" ADD CONSTRAINT "user_tags_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "admins"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_last_admin_id_fkey" FOREIGN KEY ("last_admin_id") REFERENCES "admins"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_parts" ADD CONSTRAINT "conversation_parts_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_parts" ADD CONSTRAINT "conversation_parts_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_parts" ADD CONSTRAINT "conversation_parts_from_admin_id_fkey" FOREIGN KEY ("from_admin_id") REFERENCES "admins"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_parts" ADD CONSTRAINT "conversation_parts_from_user_id_fkey" FOREIGN KEY ("from_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_parts" ADD CONSTRAINT "conversation_parts_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "admins"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_part_id_fkey" FOREIGN KEY ("part_id") REFERENCES "conversation_parts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "webhook_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_log" ADD CONSTRAINT "event_log_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;
