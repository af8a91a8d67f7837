import { describe, expect } from "vitest";
import { makeUser } from "../testing/factories";
import type { TestServer } from "../testing/server";
import { it } from "../testing/fixture";

/** Parameters whose bytes are not UTF-8 are refused, naming the field: decoded, they would be stored with U+FFFD. */
let notes: string;
let auth: Record<string, string>;
it.beforeAll(async ({ server: s, app: a }) => {
  notes = `/api/users/${(await makeUser(s.db, a.app.id)).id}/notes`;
  auth = { Authorization: `Token ${a.token}` };
});

const bytes = (...parts: (string | number[] | Buffer)[]) =>
  Buffer.concat(
    parts.map((p) => (Buffer.isBuffer(p) ? p : typeof p === "string" ? Buffer.from(p) : Buffer.from(p))),
  );

function post(s: TestServer, path: string, type: string, body: Buffer | string) {
  const sent = typeof body === "string" ? body : new Uint8Array(body);
  return s.call(path, { method: "POST", headers: { ...auth, "content-type": type }, body: sent });
}

function multipart(fields: [string, Buffer][], file?: string): { type: string; body: Buffer } {
  const b = "utf8boundary";
  const parts = fields.map(([name, value]) =>
    bytes(`--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`, value, "\r\n"),
  );
  if (file !== undefined)
    parts.push(
      bytes(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="u.csv"\r\n\r\n${file}\r\n`),
    );
  return {
    type: `multipart/form-data; boundary=${b}`,
    body: Buffer.concat([...parts, bytes(`--${b}--\r\n`)]),
  };
}

function expectRefused(r: Awaited<ReturnType<TestServer["call"]>>, field: string) {
  expect(r.status, r.text).toBe(400);
  expect(r.body.meta.error).toBe("ValidationError");
  expect(Object.keys(r.body.meta.error_fields as object)).toEqual([field]);
  expect((r.body.meta.error_fields as Record<string, string>)[field]).toMatch(/must be valid UTF-8/);
}

/** Valid UTF-8 stays as sent, U+FFFD included. */
async function expectKept(s: TestServer, type: string, body: Buffer | string) {
  const r = await post(s, notes, type, body);
  expect(r.status, r.text).toBe(200);
  expect((r.body.data as { body: string }).body).toBe("café \uFFFD");
}

describe("text that is not UTF-8", () => {
  it("is refused in the query string and in form bodies, escaped or raw, naming the field", async ({
    server: s,
  }) => {
    expectRefused(await post(s, `${notes}?body=%FF`, "application/x-www-form-urlencoded", ""), "body");
    expectRefused(await s.call(`${notes}?body=caf%C3`, { headers: auth }), "body");
    const form = "application/x-www-form-urlencoded";
    expectRefused(await post(s, notes, form, "body=%C3%28"), "body");
    expectRefused(await post(s, notes, form, bytes("x=1&body=caf", [0xe9])), "body");
    expectRefused(await post(s, notes, form, "%FF=1&body=x"), "params");
    // A malformed escape is kept as sent, as URLSearchParams keeps it; `+` is a space.
    const odd = await post(s, notes, form, "body=100%25+and+%zz");
    expect(odd.status).toBe(200);
    expect((odd.body.data as { body: string }).body).toBe("100% and %zz");
    await expectKept(s, form, "body=caf%C3%A9+%EF%BF%BD");
    await expectKept(s, form, bytes("body=café \uFFFD"));
  });

  it("is refused in JSON bodies and multipart fields", async ({ server: s }) => {
    expectRefused(await post(s, notes, "application/json", bytes('{"body":"caf', [0xe9], '"}')), "body");
    const m = multipart([["body", bytes("caf", [0xc3, 0x28])]]);
    expectRefused(await post(s, notes, m.type, m.body), "body");
    // The import reads its multipart body itself.
    const imp = multipart(
      [
        ["merge_field", bytes("$email")],
        ["tags", bytes("vip", [0xff])],
      ],
      "$email\r\n",
    );
    expectRefused(await post(s, "/api/users/import", imp.type, imp.body), "tags");
    await expectKept(s, "application/json", bytes('{"body":"café \uFFFD"}'));
    const kept = multipart([["body", bytes("café \uFFFD")]]);
    await expectKept(s, kept.type, kept.body);
  });
});
