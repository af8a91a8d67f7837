import type { TestServer, Called } from "../testing/server";
import type { TestApp } from "../testing/server-test";
import { ok } from "../users/testing";
import type { ImportJob } from "./schemas";

/** POST /users/import as a multipart form: the CSV as its file, and the other fields beside it. */
export function upload(
  s: TestServer,
  a: TestApp,
  csv: string | Blob,
  fields: Record<string, string>,
  opts: { token?: string; v?: string; query?: string } = {},
): Promise<Called> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append("file", typeof csv === "string" ? new Blob([csv], { type: "text/csv" }) : csv, "users.csv");
  return s.call(`/api${opts.v ?? ""}/users/import${opts.query ?? ""}`, {
    method: "POST",
    headers: { Authorization: `Token ${opts.token ?? a.token}` },
    body: fd,
  });
}

export async function finished(a: TestApp, id: ImportJob["id"], timeoutMs = 120_000): Promise<ImportJob> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = ok<ImportJob>(await a.api.get(`/api/users/import/${id}`));
    if (job.status === "done" || job.status === "failed") return job;
    if (Date.now() > until) throw new Error(`import ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
