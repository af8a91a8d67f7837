-- AlterTable
ALTER TABLE "refresh_tokens" ADD COLUMN     "user_id" BIGINT;

-- CreateTable
CREATE TABLE "messenger_devices" (
    "app_id" BIGINT NOT NULL,
    "device_hash" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messenger_devices_pkey" PRIMARY KEY ("app_id","device_hash")
);

-- CreateIndex
CREATE INDEX "messenger_devices_user_id_idx" ON "messenger_devices"("user_id");

-- CreateIndex
CREATE INDEX "refresh_tokens_user_id_idx" ON "refresh_tokens"("user_id");

-- AddForeignKey
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messenger_devices" ADD CONSTRAINT "messenger_devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
