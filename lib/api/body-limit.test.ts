import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect } from "vitest";
import { UPLOAD_BODY_LIMIT } from "../attachments/store";
import { MAX_IMPORT_BYTES } from "../imports/jobs";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";

/** Bodies over an endpoint's limit: read no further than it, and answered with a 413 the client receives. */
const IMPORT = "/api/users/import?merge_field=$email";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-body-limit-"));

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const MB = 1024 * 1024;

/** A body sent chunked (no Content-Length), in 1 MB pieces. */
function chunked(...parts: (string | number)[]): ReadableStream<Uint8Array> {
  const filler = Buffer.alloc(MB, "a");
  return new ReadableStream({
    start(c) {
      for (const p of parts) {
        if (typeof p === "string") c.enqueue(Buffer.from(p));
        else for (let left = p; left > 0; left -= MB) c.enqueue(filler.subarray(0, Math.min(MB, left)));
      }
      c.close();
    },
  });
}

async function upload(
  s: TestServer,
  a: TestApp,
  url: string,
  type: string,
  body: Buffer | ReadableStream<Uint8Array>,
) {
  const res = await fetch(s.url + url, {
    method: "POST",
    headers: { Authorization: `Token ${a.token}`, "content-type": type },
    body: body instanceof Buffer ? new Uint8Array(body) : body,
    duplex: "half",
  } as RequestInit);
  return { status: res.status, body: JSON.parse(await res.text()) as { meta: Record<string, unknown> } };
}

function curl(s: TestServer, a: TestApp, url: string, type: string, file: string, extra: string[] = []) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const args = ["-sS", "-o", "-", "-H", `Authorization: Token ${a.token}`, "-H", `Content-Type: ${type}`];
    execFile("curl", [...args, ...extra, "--data-binary", `@${file}`, s.url + url], (err, out) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out }),
    );
  });
}

const tooLarge = { status: 413, error: "PayloadTooLarge" };
const hasCurl = spawnSync("curl", ["--version"]).status === 0;

describe("request bodies over the endpoint's limit", () => {
  it("are read no further than the limit whatever the transfer encoding, raw bodies too", async ({
    server: s,
    app: a,
    conversation,
  }) => {
    const reply = `/api/conversations/${conversation.id}/reply`;
    const b = "limitboundary";
    const part = `--${b}\r\nContent-Disposition: form-data; name="file"; filename="u.csv"\r\n\r\n$email\r\n`;
    const type = `multipart/form-data; boundary=${b}`;
    const limit = MAX_IMPORT_BYTES + MB;
    // Neither the file nor a field is over its own limit: the bytes around them are.
    const epilogue = await upload(s, a, IMPORT, type, chunked(part, `--${b}--\r\n`, limit));
    expect(epilogue.body.meta).toMatchObject(tooLarge);
    const preamble = await upload(s, a, IMPORT, type, chunked(limit, `\r\n${part}--${b}--\r\n`));
    expect(preamble.body.meta).toMatchObject(tooLarge);
    const form = await upload(
      s,
      a,
      reply,
      "application/x-www-form-urlencoded",
      chunked("body=", UPLOAD_BODY_LIMIT),
    );
    expect(form.body.meta).toMatchObject(tooLarge);
  });

  it("get their 413 to clients still uploading (Node's fetch, curl), then the connection closes", async ({
    server: s,
    app: a,
    conversation,
  }) => {
    const reply = `/api/conversations/${conversation.id}/reply`;
    const over = (limit: number) => Buffer.alloc(limit + MB, "a");
    const answers = await Promise.all([
      ...[1, 2, 3].map(() => upload(s, a, reply, "text/plain", over(UPLOAD_BODY_LIMIT))),
      ...[1, 2, 3].map(() => upload(s, a, IMPORT, "text/csv", over(MAX_IMPORT_BYTES + 10 * MB))),
      upload(s, a, IMPORT, "text/csv", chunked(MAX_IMPORT_BYTES + 2 * MB)),
    ]);
    for (const answer of answers) expect(answer.body.meta).toMatchObject(tooLarge);

    if (hasCurl) {
      const file = path.join(dir, "over.csv");
      fs.writeFileSync(file, over(MAX_IMPORT_BYTES + MB));
      for (const [url, extra] of [
        [reply, []],
        [IMPORT, []],
        [IMPORT, ["-H", "Transfer-Encoding: chunked"]],
      ] as const) {
        const r = await curl(s, a, url, "text/csv", file, [...extra]);
        expect(r.code, `${url} ${extra.join(" ")}`).toBe(0);
        expect((JSON.parse(r.out) as { meta: unknown }).meta).toMatchObject(tooLarge);
      }
    }

    // A client that never stops sending gets its answer, and is closed on after a bounded drain (5 s here).
    // Half-open: it goes on sending after the server's FIN, as curl and fetch do.
    const socket = net.connect({ port: Number(new URL(s.url).port), host: "127.0.0.1", allowHalfOpen: true });
    let received = "";
    let answeredAt = 0;
    socket.on("data", (d: Buffer) => {
      received += d.toString();
      answeredAt ||= Date.now();
    });
    socket.on("error", () => undefined);
    socket.write(
      `POST ${reply} HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${a.token}\r\n` +
        `Content-Type: text/plain\r\nContent-Length: ${1024 * MB}\r\n\r\n`,
    );
    const drip = setInterval(() => socket.write(Buffer.alloc(64 * 1024, "a")), 20);
    const closedAt = await new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 413 [\s\S]*connection: close[\s\S]*"error":"PayloadTooLarge"/i);
    expect(closedAt - answeredAt).toBeGreaterThan(3_000);
    expect(closedAt - answeredAt).toBeLessThan(10_000);
  }, 60_000);
});
