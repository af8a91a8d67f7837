import fs from "node:fs";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeApp, makeToken, makeUser } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { MAX_IMPORT_BYTES } from "./jobs";
import { BATCH_ROWS } from "./run-import";
import type { ImportJob } from "./schemas";
import { finished, upload } from "./testing";

describe("POST /users/import", () => {
  it("imports by $user_id, typing props, tagging users and reporting bad rows", async ({
    server: s,
    app: a,
  }) => {
    await makeUser(s.db, a.app.id, { userId: "imp-1", name: "Old name" });
    await s.db.user.updateMany({ where: { userId: "imp-1" }, data: { propsCustom: { keep: "me" } } });
    const csv = [
      "$user_id;$name;$email;$sessions;plan;seats;note",
      'imp-1;New name;one@x.test;3;pro;12;"semi; colon"',
      'imp-2;"Two ""2"" Lines";;;free;1;"line\nbreak"',
      "imp-3;Three;not-an-email;;;;",
      ";No key;;;;;",
      "imp-4;Four;;x;;;",
      "imp-2;;;;;7;",
    ].join("\r\n");
    const started = ok<ImportJob>(
      await upload(s, a, csv, { merge_field: "$user_id", delimiter: ";", tags: "imported,vip" }),
    );
    expect(started).toMatchObject({
      merge_field: "$user_id",
      tags: ["imported", "vip"],
      total_bytes: Buffer.byteLength(csv),
    });
    expect(["pending", "running", "done"]).toContain(started.status);
    const job = await finished(a, started.id);
    expect(job).toMatchObject({
      status: "done",
      rows_processed: 6,
      rows_imported: 3,
      rows_failed: 3,
      error: null,
    });
    expect(job.processed_bytes).toBe(job.total_bytes);
    expect(job.row_errors).toEqual([
      { row: 5, error: "$email is not an email address" },
      { row: 6, error: "no $user_id (the merge field)" },
      { row: 7, error: "$sessions is an integer property" },
    ]);
    const one = await s.db.user.findFirstOrThrow({
      where: { appId: a.app.id, userId: "imp-1" },
      include: { tags: true },
    });
    expect(one).toMatchObject({
      name: "New name",
      email: "one@x.test",
      sessions: 3,
      propsCustom: { keep: "me", plan: "pro", seats: 12, note: "semi; colon" },
    });
    expect(one.tags.map((t) => t.tag).sort()).toEqual(["imported", "vip"]);
    const two = await s.db.user.findFirstOrThrow({ where: { appId: a.app.id, userId: "imp-2" } });
    expect(two).toMatchObject({
      name: 'Two "2" Lines',
      isLead: true,
      propsCustom: { plan: "free", seats: 7, note: "line\nbreak" },
    });
  });

  it("merges by $email (the oldest user of an email) and accepts a raw text/csv body", async ({
    server: s,
    app: a,
  }) => {
    const old = await makeUser(s.db, a.app.id, { email: "dup@x.test" });
    await makeUser(s.db, a.app.id, { email: "dup@x.test" });
    const csv = "$email,$city\ndup@x.test,Lyon\nfresh@x.test,Nice\n";
    const r = await s.call(`/api/users/import?merge_field=$email&tags=csv`, {
      method: "POST",
      headers: { Authorization: `Token ${a.token}`, "content-type": "text/csv" },
      body: csv,
    });
    const job = await finished(a, ok<ImportJob>(r).id);
    expect(job).toMatchObject({ status: "done", rows_imported: 2 });
    expect((await s.db.user.findUniqueOrThrow({ where: { id: old.id } })).city).toBe("Lyon");
    const fresh = await s.db.user.findFirstOrThrow({
      where: { appId: a.app.id, email: "fresh@x.test" },
      include: { tags: true },
    });
    expect(fresh).toMatchObject({ city: "Nice", userId: null, isLead: true });
    expect(fresh.tags.map((t) => t.tag)).toEqual(["csv"]);
  });

  it("fails the job with a clear error for a bad header or a broken file", async ({ server: s, app: a }) => {
    const cases: [string, string, RegExp][] = [
      ["$email,plan\na@x.test,pro\n", "$user_id", /no \$user_id column/],
      ["$user_id,$bogus\nu,1\n", "$user_id", /\$bogus is not a system property/],
      ['$user_id,plan\nu,"unclosed\n', "$user_id", /line 2: a quoted field is not closed/],
      ["", "$user_id", /the file is empty/],
    ];
    for (const [csv, merge, error] of cases) {
      const job = await finished(a, ok<ImportJob>(await upload(s, a, csv, { merge_field: merge })).id);
      expect(job.status).toBe("failed");
      expect(job.error).toMatch(error);
    }
  });

  it("refuses bad requests clearly", async ({ server: s, app: a }) => {
    expect(errorOf(await upload(s, a, "a", {}), 400, "ValidationError").error_fields).toEqual({
      merge_field: "must be one of: $user_id, $email",
    });
    expect(
      errorOf(await upload(s, a, "a", { merge_field: "name" }), 400, "ValidationError").error_fields,
    ).toHaveProperty("merge_field");
    expect(
      errorOf(await upload(s, a, "a", { merge_field: "$email", delimiter: "::" }), 400, "ValidationError")
        .error_fields,
    ).toHaveProperty("delimiter");
    expect(
      errorOf(
        await upload(s, a, "a", { merge_field: "$email", tags: "a,b" + ",x".repeat(20) }),
        400,
        "ValidationError",
      ).error_fields,
    ).toHaveProperty("tags");
    const noFile = await s.call(`/api/users/import`, {
      method: "POST",
      headers: { Authorization: `Token ${a.token}` },
      form: { merge_field: "$email" },
    });
    expect(errorOf(noFile, 400, "ValidationError").error_fields).toHaveProperty("file");
    const big = await s.call(`/api/users/import?merge_field=$email`, {
      method: "POST",
      headers: { Authorization: `Token ${a.token}`, "content-type": "text/csv" },
      body: new Uint8Array(31 * 1024 * 1024 + 1),
    });
    errorOf(big, 413, "PayloadTooLarge");
    const other = await makeApp(s.db);
    errorOf(
      await upload(
        s,
        a,
        "$email\n",
        { merge_field: "$email" },
        { query: `?app=${a.app.id}`, token: other.token },
      ),
      403,
      "PermissionDenied",
    );
    const job = ok<ImportJob>(await upload(s, a, "$email\n", { merge_field: "$email" }));
    errorOf(await client(s, other.token).get(`/api/users/import/${job.id}`), 403, "PermissionDenied");
    errorOf(await a.api.get(`/api/users/import/99999999`), 400, "LookupError");
    await finished(a, job.id);
  });

  it(
    "accepts a file of exactly the 30 MiB limit and refuses one byte more with 413",
    { timeout: 180_000 },
    async ({ server: s, app: a }) => {
      expect(MAX_IMPORT_BYTES).toBe(30 * 1024 * 1024);
      const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "import-limit-"));
      try {
        // A real row, then blank lines (which the reader skips) up to the size wanted; written in 1 MiB chunks.
        const file = async (name: string, size: number) => {
          const head = "$user_id,plan\nlimit-user,pro\n";
          const full = path.join(dir, name);
          const out = fs.createWriteStream(full);
          out.write(head);
          const chunk = Buffer.alloc(1024 * 1024, "\n");
          for (let left = size - Buffer.byteLength(head); left > 0; left -= chunk.length)
            if (!out.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await once(out, "drain");
          await new Promise<void>((resolve, reject) =>
            out.end((err?: Error | null) => (err ? reject(err) : resolve())),
          );
          expect((await fs.promises.stat(full)).size).toBe(size);
          return fs.openAsBlob(full, { type: "text/csv" });
        };
        const jobs = () => s.db.importJob.count({ where: { appId: a.app.id } });
        const before = await jobs();

        const over = await file("over.csv", MAX_IMPORT_BYTES + 1);
        expect(
          errorOf(await upload(s, a, over, { merge_field: "$user_id" }), 413, "PayloadTooLarge")
            .error_message,
        ).toMatch(/30 MB/);
        const raw = await s.call(`/api/users/import?merge_field=$user_id`, {
          method: "POST",
          headers: { Authorization: `Token ${a.token}`, "content-type": "text/csv" },
          body: over,
        });
        errorOf(raw, 413, "PayloadTooLarge");
        expect(await jobs()).toBe(before);

        const exact = await file("exact.csv", MAX_IMPORT_BYTES);
        const started = ok<ImportJob>(await upload(s, a, exact, { merge_field: "$user_id" }));
        expect(started.total_bytes).toBe(MAX_IMPORT_BYTES);
        expect(await jobs()).toBe(before + 1);
        const job = await finished(a, started.id, 150_000);
        expect(job).toMatchObject({ status: "done", rows_imported: 1, rows_failed: 0 });
        expect(job.processed_bytes).toBe(MAX_IMPORT_BYTES);
        const user = await s.db.user.findFirstOrThrow({ where: { appId: a.app.id, userId: "limit-user" } });
        expect(user.propsCustom).toMatchObject({ plan: "pro" });
      } finally {
        await fs.promises.rm(dir, { recursive: true, force: true });
      }
    },
  );

  it("serves v1 with the user-write scope", async ({ server: s, app: a }) => {
    const job = ok<ImportJob>(
      await upload(s, a, "$user_id\nv1-user\n", { merge_field: "$user_id" }, { v: "/v1" }),
    );
    expect((await finished(a, job.id)).rows_imported).toBe(1);
    // Imports are also app-admin's: a job reads with user-read and app-admin, a start needs user-write.
    const narrow = await makeToken(s.db, a.app.id, ["user-read", "app-admin"]);
    errorOf(
      await upload(s, a, "$user_id\nx\n", { merge_field: "$user_id" }, { v: "/v1", token: narrow }),
      403,
      "PermissionDenied",
    );
    ok(await client(s, narrow).get(`/api/v1/users/import/${job.id}`));
  });

  const ROWS = 20_000;
  // 20 batches (BATCH_ROWS): enough to see progress between them. Size itself is proven elsewhere: the 30 MiB test
  // above streams a file at the limit, and bench/cases-users.ts times an import of 100,000 rows.
  it(
    "imports 20,000 rows streamed in batches, reporting progress",
    { timeout: 300_000 },
    async ({ server: s, app: a }) => {
      expect(ROWS / BATCH_ROWS).toBeGreaterThanOrEqual(20);
      const b = await makeApp(s.db);
      const lines = ["$user_id,$name,$email,plan,score"];
      for (let i = 0; i < ROWS; i++)
        lines.push(`bulk-${i},Person ${i},p${i}@bulk.test,${i % 2 ? "pro" : "free"},${i}`);
      const csv = new Blob([lines.join("\n") + "\n"], { type: "text/csv" });
      const started = ok<ImportJob>(await upload(s, a, csv, { merge_field: "$user_id" }, { token: b.token }));
      const seen = new Set<number>();
      let job: ImportJob = started;
      while (job.status !== "done" && job.status !== "failed") {
        await new Promise((r) => setTimeout(r, 50));
        job = ok<ImportJob>(await client(s, b.token).get(`/api/users/import/${started.id}`));
        seen.add(job.rows_processed);
      }
      expect(job).toMatchObject({
        status: "done",
        rows_processed: ROWS,
        rows_imported: ROWS,
        rows_failed: 0,
      });
      expect(job.processed_bytes).toBe(csv.size);
      expect(seen.size).toBeGreaterThan(1);
      expect(await s.db.user.count({ where: { appId: b.app.id } })).toBe(ROWS);
      const last = await s.db.user.findFirstOrThrow({
        where: { appId: b.app.id, userId: `bulk-${ROWS - 1}` },
      });
      expect(last).toMatchObject({
        name: `Person ${ROWS - 1}`,
        propsCustom: { plan: "pro", score: ROWS - 1 },
      });
    },
  );
});
