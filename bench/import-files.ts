import fs from "node:fs";
import http from "node:http";
import pg from "pg";
import { TRACE_HEADER } from "./capture";

/** The import benchmarks' pieces (bench/cases-users.ts benchImport, bench/import-upload.ts). */

/**
 * A CSV of `rows` users with system and custom props, as an export from another tool looks. `narrow` rows (the
 * merge key and two custom props) fit 1,000,000 of them under the upload limit (30 MB), to show that memory does not
 * grow with the file.
 */
export function writeImportCsv(file: string, rows: number, shape: "wide" | "narrow" = "wide"): void {
  // Written in slices: a million rows joined at once would be the benchmark's own memory spike.
  const fd = fs.openSync(file, "w");
  const lines: string[] = [
    shape === "wide"
      ? "$user_id,$name,$email,$phone,$country,$city,$sessions,$last_seen,plan,company,mrr"
      : "$user_id,plan,mrr",
  ];
  const flush = () => {
    fs.writeSync(fd, lines.join("\n") + "\n");
    lines.length = 0;
  };
  for (let i = 1; i <= rows; i++) {
    lines.push(
      shape === "narrow"
        ? `imp_${i},${["free", "pro"][i % 2]},${(i % 300) + 0.99}`
        : `imp_${i},Imported ${i},imported.${i}@example.test,+44 20 7946 ${String(i % 10_000).padStart(4, "0")},` +
            `United Kingdom,London,${1 + (i % 40)},2026-0${1 + (i % 9)}-1${i % 10}T10:00:00Z,${["free", "pro"][i % 2]},` +
            `"Company ${i % 500}, Ltd",${(i % 300) + 0.99}`,
    );
    if (lines.length >= 10_000) flush();
  }
  if (lines.length) flush();
  fs.closeSync(fd);
}

export type UploadMode = "multipart" | "raw";

/**
 * Posts the file to /api/users/import streamed from disk, as a raw text/csv body or as multipart/form-data (field
 * `file`, framing written around the stream by hand); with `label`, the request (and the job's SQL) is traced.
 * Resolves with the job's ID.
 */
export function uploadImport(
  base: string,
  token: string,
  file: string,
  opts: { mode?: UploadMode; label?: string } = {},
): Promise<string> {
  const boundary = "----bench-import-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="merge_field"\r\n\r\n$user_id\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  const multipart = opts.mode === "multipart";
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/users/import${multipart ? "" : "?merge_field=%24user_id"}`,
      {
        method: "POST",
        headers: {
          authorization: `Token ${token}`,
          "content-type": multipart ? `multipart/form-data; boundary=${boundary}` : "text/csv",
          "content-length": multipart ? head.length + size + tail.length : size,
          ...(opts.label ? { [TRACE_HEADER]: encodeURIComponent(opts.label) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`import: HTTP ${res.statusCode} ${body}`));
          else resolve(String((JSON.parse(body) as { data: { id: number | string } }).data.id));
        });
      },
    );
    req.on("error", reject);
    if (multipart) req.write(head);
    const stream = fs.createReadStream(file);
    stream.pipe(req, { end: !multipart });
    if (multipart) stream.on("end", () => req.end(tail));
  });
}

/** A process's resident memory, from /proc. */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

/**
 * The imported users, without the foreign-key triggers: each user's ON DELETE SET NULL on
 * conversation_parts.from_user_id (not indexed) would scan every part of the dataset. So the rows that reference
 * them are deleted here by app: their tags and custom props (typed values and list items), which the cascade would
 * otherwise leave behind, millions of them in a reused dataset.
 */
export async function deleteImportedUsers(url: string, appId: bigint): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query("BEGIN");
    await c.query("SET LOCAL session_replication_role = replica");
    for (const table of ["user_tags", "user_prop_values", "user_prop_items"])
      await c.query(`DELETE FROM ${table} WHERE app_id = $1`, [appId]);
    await c.query("DELETE FROM users WHERE app_id = $1", [appId]);
    await c.query("COMMIT");
  } finally {
    await c.end();
  }
}
