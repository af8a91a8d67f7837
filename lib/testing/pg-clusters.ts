import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./port";

/**
 * A PostgreSQL primary and its streaming replica of their own, on loopback ports, in a temporary directory: for
 * the read-replica tests (lib/db/replica.api.test.ts). Debian's server binaries; run as `postgres` when the tests
 * run as root (PostgreSQL refuses root).
 */
const BIN = (() => {
  const base = "/usr/lib/postgresql";
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions
    .map((v) => path.join(base, v, "bin"))
    .find((d) => fs.existsSync(path.join(d, "initdb")));
  return found;
})();

export const pgServerInstalled = () => BIN !== undefined;

export interface PgPair {
  primaryUrl(db: string): string;
  replicaUrl(db: string): string;
  /** Runs SQL on the replica as the superuser (pause or resume its replay). */
  onReplica(sql: string): string;
  stopReplica(): void;
  stop(): void;
}

function run(cmd: string, args: string[]): string {
  const asPostgres = process.getuid?.() === 0;
  const [file, argv] = asPostgres ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
  return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export async function startPgPair(): Promise<PgPair> {
  if (!BIN) throw new Error("PostgreSQL's server binaries are not installed (apt-get install postgresql)");
  const bin = (name: string) => path.join(BIN, name);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-pg-pair-"));
  fs.chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  const [p1, p2] = [await freePort(), await freePort()];
  const primary = path.join(dir, "primary");
  const replica = path.join(dir, "replica");
  const options = (port: number) => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  // initdb's pg_hba trusts replication connections from loopback as it trusts the rest (--auth=trust).
  run(bin("initdb"), ["-D", primary, "-U", "postgres", "--auth=trust", "-N"]);
  run(bin("pg_ctl"), ["-D", primary, "-o", options(p1), "-l", path.join(dir, "primary.log"), "-w", "start"]);
  run(bin("pg_basebackup"), ["-h", "127.0.0.1", "-p", String(p1), "-U", "postgres", "-D", replica, "-R"]);
  run(bin("pg_ctl"), ["-D", replica, "-o", options(p2), "-l", path.join(dir, "replica.log"), "-w", "start"]);
  const url = (port: number, db: string) => `postgresql://postgres@127.0.0.1:${port}/${db}`;
  let replicaUp = true;
  const stopReplica = () => {
    if (!replicaUp) return;
    replicaUp = false;
    run(bin("pg_ctl"), ["-D", replica, "-m", "immediate", "-w", "stop"]);
  };
  return {
    primaryUrl: (db) => url(p1, db),
    replicaUrl: (db) => url(p2, db),
    onReplica: (sql) =>
      run(bin("psql"), ["-h", "127.0.0.1", "-p", String(p2), "-U", "postgres", "-Atc", sql]),
    stopReplica,
    stop: () => {
      stopReplica();
      run(bin("pg_ctl"), ["-D", primary, "-m", "fast", "-w", "stop"]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
