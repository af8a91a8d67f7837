-- Retention's high-water mark: the largest event-log id it has deleted. A real-time subscribe with an `after` below
-- it is told that its replay has a gap (lib/realtime/retention.ts).
-- CreateTable
CREATE TABLE "event_log_purged" (
    "id" INTEGER NOT NULL,
    "up_to" BIGINT NOT NULL,
    "updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_log_purged_pkey" PRIMARY KEY ("id")
);
