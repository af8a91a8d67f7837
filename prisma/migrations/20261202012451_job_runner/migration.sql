-- Jobs left pending or running by the heartbeat mechanism this replaces have no runner row: they end as failed,
-- with the words the sweeper used, before the columns that judged them go.
UPDATE "import_jobs" SET "status" = 'failed', "finished" = now(),
  "error" = 'the server stopped while this import was running. The rows imported before it stopped are kept; upload the file again to import the rest (rows are merged on the merge field, so none is duplicated).'
WHERE "status" IN ('pending', 'running');
UPDATE "bulk_jobs" SET "status" = 'failed', "finished" = now(),
  "error" = 'the server stopped while this job was running. The conversations changed before it stopped stay changed; run the action again to finish (those already as asked are left as they are).'
WHERE "status" IN ('pending', 'running');

-- AlterTable
ALTER TABLE "bulk_jobs" DROP COLUMN "heartbeat";

-- AlterTable
ALTER TABLE "import_jobs" DROP COLUMN "heartbeat";

-- CreateTable
CREATE TABLE "jobs" (
    "id" BIGSERIAL NOT NULL,
    "queue" TEXT NOT NULL,
    "key" TEXT,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(6),
    "last_error" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started" TIMESTAMPTZ(6),
    "finished" TIMESTAMPTZ(6),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "jobs_key_key" ON "jobs"("key");

-- CreateIndex
CREATE INDEX "jobs_queue_status_run_at_idx" ON "jobs"("queue", "status", "run_at");
