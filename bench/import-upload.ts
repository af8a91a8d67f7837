import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "../lib/db/client";
import { makeApp } from "../lib/testing/factories";
import { spawnServer } from "../lib/testing/spawn";
import { deleteImportedUsers, rssOf, uploadImport, writeImportCsv, type UploadMode } from "./import-files";

/**
 * A CSV import of the import case's rows (bench/cases-users.ts) through a real server, without the 1M-user dataset:
 *
 *   DATABASE_URL=postgresql://… npx tsx bench/import-upload.ts [rows=100000] [runs=2] [wide|narrow]
 *
 * Each run spawns a fresh `server.ts` (heap limited as benchImport's is), warms it with a 100-row import, then
 * uploads the file once as multipart/form-data (field `file`) and once as a raw text/csv body, and prints per
 * upload: the time until the answer (the body read and spooled), the time until the job is done, and the
 * server's peak RSS meanwhile (sampled every 20 ms) with its growth over the settled RSS before.
 */
process.env.CHECKPOINT_DISABLE = "1";
const rows = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 2);
const shape = process.argv[4] === "narrow" ? "narrow" : "wide";
const HEAP_MB = Number(process.env.BENCH_IMPORT_HEAP_MB ?? 192);
const url = process.env.DATABASE_URL;
if (!url?.startsWith("postgres")) {
  console.error("DATABASE_URL=postgresql://… is needed (the server and this script share the database)");
  process.exit(2);
}

async function status(base: string, token: string, id: string) {
  const res = await fetch(`${base}/api/users/import/${id}`, { headers: { authorization: `Token ${token}` } });
  return ((await res.json()) as { data: { status: string; rows_imported: number; error: string | null } })
    .data;
}

async function runImport(base: string, token: string, file: string, mode: UploadMode) {
  const t = performance.now();
  const id = await uploadImport(base, token, file, { mode });
  const uploadMs = performance.now() - t;
  for (;;) {
    const s = await status(base, token, id);
    if (s.status === "failed") throw new Error(`import failed: ${s.error}`);
    if (s.status === "done") return { uploadMs, ms: performance.now() - t, rows: s.rows_imported };
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const file = path.join(os.tmpdir(), `relay-bench-upload-${process.pid}.csv`);
  const warm = path.join(os.tmpdir(), `relay-bench-upload-warm-${process.pid}.csv`);
  writeImportCsv(file, rows, shape);
  writeImportCsv(warm, 100);
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  console.log(`${rows} rows, ${mb(fs.statSync(file).size)} MB file, server heap ≤ ${HEAP_MB} MB`);
  // A first server applies the migrations before this script opens the database.
  let handle: Awaited<ReturnType<typeof openDb>> | undefined;
  try {
    for (let run = 0; run < runs; run++) {
      for (const mode of ["multipart", "raw"] as const) {
        const server = spawnServer({
          DATABASE_URL: url!,
          SEED_DEMO: "0",
          RATE_LIMIT_PER_SECOND: "100000",
          RATE_LIMIT_BURST: "100000",
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=${HEAP_MB}`.trim(),
        });
        try {
          const base = await server.ready;
          handle ??= await openDb(url!, { poolSize: 2 });
          const made = await makeApp(handle.db, { name: "Bench upload" });
          const pid = server.child.pid!;
          await runImport(base, made.token, warm, mode);
          await deleteImportedUsers(url!, made.app.id);
          await new Promise((r) => setTimeout(r, 1000));
          const before = rssOf(pid);
          let peak = before;
          const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
          const r = await runImport(base, made.token, file, mode);
          clearInterval(sampler);
          await deleteImportedUsers(url!, made.app.id);
          await handle.db.app.delete({ where: { id: made.app.id } }).catch(() => undefined);
          console.log(
            `${mode.padEnd(9)} rows ${r.rows}  upload ${r.uploadMs.toFixed(0)} ms  done ${r.ms.toFixed(0)} ms  ` +
              `peak RSS ${mb(peak)} MB (+${mb(peak - before)} MB)`,
          );
        } finally {
          server.child.kill("SIGTERM");
          await server.exited;
        }
      }
    }
  } finally {
    fs.rmSync(file, { force: true });
    fs.rmSync(warm, { force: true });
    await handle?.close();
  }
}

await main();
