import { listJobs, JOB_STATUSES, type JobStatus } from "../../lib/jobs/store";
import { UsageError } from "../args";
import { num, type Command } from "./command";

/** What the runner holds: the newest jobs first, each with its state, attempts and last error. */
export const jobs: Command = {
  name: "jobs",
  usage: "[--status queued|running|done|failed] [--limit N]",
  summary:
    "List background jobs (imports, bulk actions, periodic sweeps), newest first: state, attempts, when due, " +
    "last error.",
  flags: ["status", "limit"],
  prepare(args) {
    const status = args.flags.get("status");
    if (status !== undefined && !(JOB_STATUSES as readonly string[]).includes(status))
      throw new UsageError(`--status must be one of ${JOB_STATUSES.join(", ")}`, "jobs");
    const limitText = args.flags.get("limit") ?? "50";
    const limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw new UsageError("--limit must be a whole number from 1 to 1000", "jobs");
    return async (db) => {
      const rows = await listJobs(db, { status: status as JobStatus | undefined, limit });
      const line = (j: (typeof rows)[number]) =>
        [
          `#${j.id}`,
          j.queue,
          j.status,
          `attempt ${j.attempts}`,
          j.status === "queued" ? `due ${j.runAt.toISOString()}` : "",
          j.status === "running" && j.leaseUntil ? `lease until ${j.leaseUntil.toISOString()}` : "",
          j.finished ? `finished ${j.finished.toISOString()}` : "",
          j.lastError ? `last error: ${j.lastError}` : "",
        ]
          .filter(Boolean)
          .join("  ");
      return {
        json: rows.map((j) => ({
          id: num(j.id),
          queue: j.queue,
          status: j.status,
          attempts: j.attempts,
          run_at: j.runAt.toISOString(),
          lease_until: j.leaseUntil?.toISOString() ?? null,
          last_error: j.lastError,
          created: j.created.toISOString(),
          finished: j.finished?.toISOString() ?? null,
        })),
        text: rows.length ? rows.map(line).join("\n") : "No jobs.",
      };
    };
  },
};
