-- CreateTable
CREATE TABLE "messenger_settings" (
    "app_id" BIGINT NOT NULL,
    "public_key" TEXT NOT NULL,
    "allowed_origins" TEXT[],
    "identity_required" BOOLEAN NOT NULL DEFAULT false,
    "identity_secret" TEXT NOT NULL,
    "accent_color" TEXT NOT NULL,
    "position" TEXT NOT NULL,
    "greeting" TEXT NOT NULL,
    "team_intro" TEXT NOT NULL,
    "reply_time_text" TEXT NOT NULL,
    "offline_text" TEXT NOT NULL,
    "email_prompt" TEXT NOT NULL,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messenger_settings_pkey" PRIMARY KEY ("app_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "messenger_settings_public_key_key" ON "messenger_settings"("public_key");

-- AddForeignKey
ALTER TABLE "messenger_settings" ADD CONSTRAINT "messenger_settings_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;
