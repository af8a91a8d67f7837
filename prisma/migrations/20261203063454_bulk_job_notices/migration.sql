-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "bulk_job_id" BIGINT,
ADD COLUMN     "count" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "bulk_job_notices" (
    "bulk_job_id" BIGINT NOT NULL,
    "admin_id" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "conversation_id" BIGINT NOT NULL,
    "actor_id" BIGINT,

    CONSTRAINT "bulk_job_notices_pkey" PRIMARY KEY ("bulk_job_id","admin_id","kind")
);

-- CreateIndex
CREATE UNIQUE INDEX "notifications_bulk_job_id_admin_id_key" ON "notifications"("bulk_job_id", "admin_id");

-- AddForeignKey
ALTER TABLE "bulk_job_notices" ADD CONSTRAINT "bulk_job_notices_bulk_job_id_fkey" FOREIGN KEY ("bulk_job_id") REFERENCES "bulk_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
