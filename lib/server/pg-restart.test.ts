import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../db/client";
import { migrate } from "../db/migrate";
import { serverUrl } from "../db/testing";
import { makeApp, makeUser } from "../testing/factories";
import { spawnServer } from "../testing/spawn";
import { waitUntil } from "../webhooks/testing";
import { freePort } from "../testing/port";

/**
 * The real server as a child process on a PostgreSQL cluster of the test's own, restarted while clients reply:
 * during the outage every answer is a 503 envelope with Retry-After, afterwards the server serves again by itself,
 * no uncaughtException is logged, every reply that answered 200 is stored once and none that answered an error is,
 * and retrying those with their Idempotency-Key stores each once. PostgreSQL only, like the other PG-only tests
 * (the embedded database has no server to restart).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A throwaway cluster on 127.0.0.1; as root, run by the `postgres` user (initdb refuses root). */
async function makeCluster() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-pgfault-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : cmd, asRoot ? ["-u", "postgres", "--", cmd, ...args] : args, {
      stdio: "pipe",
    });
  const port = await freePort();
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=60`;
  const ctl = (...args: string[]) =>
    run("pg_ctl", ["-D", data, "-o", opts, "-l", `${dir}/log`, "-w", ...args]);
  ctl("start");
  cleanups.push(() => {
    try {
      ctl("-m", "immediate", "stop");
    } catch {
      // already stopped
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start: () => ctl("start"),
    stop: () => ctl("-m", "fast", "stop"),
  };
}

interface Answer {
  body: string;
  status: number | "none";
  error?: unknown;
  retryAfter?: string | null;
}

describe.runIf(serverUrl())("PostgreSQL restarted under a reply load", () => {
  it("answers 503 during the outage, recovers by itself, and loses or doubles nothing", async () => {
    const cluster = await makeCluster();
    const h = await openDb(cluster.url);
    await migrate({ url: cluster.url });
    const { app, token } = await makeApp(h.db);
    const users = await Promise.all(Array.from({ length: 3 }, () => makeUser(h.db, app.id)));
    await h.close();

    // The reply load runs faster than the default per-token limit (50/s) once the database is back: a 429 there
    // would say nothing of the outage, which is what this test is about.
    const server = spawnServer({
      DATABASE_URL: cluster.url,
      SEED_DEMO: "0",
      RATE_LIMIT_PER_SECOND: "100000",
      RATE_LIMIT_BURST: "100000",
    });
    cleanups.push(async () => {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await server.exited;
    });
    const url = await server.ready;
    const post = (p: string, body: unknown, key?: string) =>
      fetch(url + p, {
        method: "POST",
        headers: {
          Authorization: `Token ${token}`,
          "content-type": "application/json",
          ...(key ? { "Idempotency-Key": key } : {}),
        },
        body: JSON.stringify(body),
      });
    const convs: number[] = [];
    for (const u of users) {
      const r = await post(`/api/users/${u.id}/startconversation`, { body: "hello" });
      convs.push(((await r.json()) as { data: { id: number } }).data.id);
    }

    // Six clients reply, each with its body as Idempotency-Key, until told to stop.
    const answers: Answer[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const body = `w${w}-${i}`;
        try {
          const r = await post(`/api/conversations/${convs[i % convs.length]}/reply`, { body }, body);
          const env = (await r.json()) as { meta: { error?: string } };
          answers.push({
            body,
            status: r.status,
            error: env.meta.error,
            retryAfter: r.headers.get("Retry-After"),
          });
          if (r.status !== 200) await new Promise((res) => setTimeout(res, 200));
        } catch (err) {
          answers.push({ body, status: "none", error: err });
        }
      }
    };
    const writers = Array.from({ length: 6 }, (_, w) => writer(w));
    const ok = () => answers.filter((a) => a.status === 200).length;
    await waitUntil(async () => ok() >= 60, 30_000);
    cluster.stop();
    const downAt = answers.length;
    await waitUntil(async () => answers.slice(downAt).filter((a) => a.status === 503).length >= 20, 20_000);
    // Down long enough for the log tail (every second) and the webhook dispatcher's poll to fail a few times.
    await new Promise((r) => setTimeout(r, 2_500));
    cluster.start();
    const upAt = answers.length;
    // Recovered by itself: replies succeed again without any help.
    await waitUntil(async () => answers.slice(upAt).filter((a) => a.status === 200).length >= 30, 30_000);
    stop = true;
    await Promise.all(writers);

    const failed = answers.filter((a) => a.status !== 200);
    expect(failed.length).toBeGreaterThanOrEqual(20);
    for (const a of failed)
      expect([a.status, a.error, a.retryAfter], a.body).toEqual([503, "ServiceUnavailable", "5"]);
    expect(server.output()).not.toMatch(/uncaughtException|unhandledRejection/i);
    // One line each for the outage, not one per poll.
    expect(server.output().match(/event log tail failed/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(server.output().match(/webhook dispatcher failed/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(server.output().match(/database connection lost/g)?.length ?? 0).toBeLessThanOrEqual(1);
    const jobLines = server.output().match(/job [a-z ]+ failed, retrying/g) ?? [];
    expect(new Set(jobLines).size, jobLines.join("\n")).toBe(jobLines.length);

    const db = await openDb(cluster.url);
    cleanups.push(() => db.close());
    const stored = async () => {
      const rows = await db.db.conversationPart.groupBy({
        by: ["body"],
        where: { conversationId: { in: convs.map(BigInt) }, body: { startsWith: "w" } },
        _count: true,
      });
      return new Map(rows.map((r) => [r.body, r._count]));
    };
    const before = await stored();
    for (const a of answers) {
      if (a.status === 200) expect(before.get(a.body), a.body).toBe(1);
      else expect(before.get(a.body), a.body).toBeUndefined();
    }
    // Each refused reply retried with its key (twice): stored once.
    for (const a of failed) {
      const conv = convs[Number(a.body.split("-")[1]) % convs.length];
      for (let n = 0; n < 2; n++) {
        const r = await post(`/api/conversations/${conv}/reply`, { body: a.body }, a.body);
        expect(r.status, a.body).toBe(200);
        expect(r.headers.get("Idempotent-Replayed")).toBe(n === 0 ? null : "true");
      }
    }
    const after = await stored();
    for (const a of answers) expect(after.get(a.body), a.body).toBe(1);
    console.log(`pg restart: ${ok()} replies answered 200, ${failed.length} answered 503 and were retried`);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 90_000);
});
