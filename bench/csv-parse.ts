import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCsv } from "../lib/imports/csv";

/**
 * The CSV import's parser alone, on generated rows shaped like the import case's (bench/cases-users.ts):
 *
 *   npx tsx bench/csv-parse.ts [rows=100000]
 *
 * Writes the file to the temp directory, reads it back through parseCsv as the import does (a file stream), and
 * prints rows/s, MB/s, the CPU time (steadier than wall time on a busy machine) and the process's peak RSS, with the RSS at a tenth of the rows beside it: streaming end to
 * end means the two stay close whatever the row count. One run per process, so the peak is this parse's own.
 */
const rows = Number(process.argv[2] ?? 100_000);

async function writeCsv(file: string) {
  const out = fs.createWriteStream(file);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", () => r()));
  await write("$user_id,$name,$email,$phone,$country,$city,$sessions,$last_seen,plan,company,mrr\n");
  for (let i = 1; i <= rows; i++) {
    await write(
      `imp_${i},Imported ${i},imported.${i}@example.test,+44 20 7946 ${String(i % 10_000).padStart(4, "0")},` +
        `United Kingdom,London,${1 + (i % 40)},2026-0${1 + (i % 9)}-1${i % 10}T10:00:00Z,${["free", "pro"][i % 2]},` +
        `"Company ${i % 500}, Ltd\r\nsecond line",${(i % 300) + 0.99}\r\n`,
    );
  }
  await new Promise<void>((r) => out.end(() => r()));
}

async function main() {
  const file = path.join(os.tmpdir(), `relay-bench-csv-${process.pid}.csv`);
  try {
    await writeCsv(file);
    const size = fs.statSync(file).size;
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let n = 0;
    let rssTenth = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const input = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
    for await (const rec of parseCsv(input)) {
      n += rec.fields.length > 0 ? 1 : 0;
      if (n === Math.floor(rows / 10)) rssTenth = process.memoryUsage().rss;
    }
    const s = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
    console.log(
      `${n - 1} rows (${mb(size)} MB) in ${s.toFixed(2)} s: ${Math.round((n - 1) / s)} rows/s, ` +
        `${(size / 1024 / 1024 / s).toFixed(1)} MB/s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; RSS before ${mb(rssBefore)} MB, at a tenth ` +
        `${mb(rssTenth)} MB, end ${mb(process.memoryUsage().rss)} MB, peak ${mb(process.resourceUsage().maxRSS * 1024)} MB`,
    );
  } finally {
    fs.rmSync(file, { force: true });
  }
}

void main();
