-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "csat_enabled" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "conversation_ratings" (
    "conversation_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "admin_id" BIGINT,
    "requested_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "emailed_at" TIMESTAMPTZ(6),
    "rating" INTEGER,
    "comment" TEXT,
    "rated_at" TIMESTAMPTZ(6),
    "channel" TEXT,

    CONSTRAINT "conversation_ratings_pkey" PRIMARY KEY ("conversation_id")
);

-- CreateIndex
CREATE INDEX "conversation_ratings_app_id_requested_at_idx" ON "conversation_ratings"("app_id", "requested_at");

-- CreateIndex
CREATE INDEX "conversation_ratings_app_id_rated_at_idx" ON "conversation_ratings"("app_id", "rated_at");

-- AddForeignKey
ALTER TABLE "conversation_ratings" ADD CONSTRAINT "conversation_ratings_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
