-- CreateTable
CREATE TABLE "idempotency_keys" (
    "owner" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "headers" JSONB,
    "body" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("owner","key")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys"("created");
