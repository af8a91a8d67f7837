import { afterAll, beforeAll, describe, expect } from "vitest";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeSession, makeUser, TEST_PASSWORD } from "../testing/factories";
import { fingerprint } from "../testing/fingerprint";
import { makeTarget, type Target } from "../testing/target";
import { spawnServer } from "../testing/spawn";

/**
 * Secrets at rest and in logs, uploads by content, the session cookie's attributes and CSRF on panel writes.
 * (Rendering visitor text safely in the Inbox is the browser suite's.)
 */

/** Every row of every table of ours, as text, that contains `needle`. */
async function rowsContaining(db: Db, needle: string): Promise<string[]> {
  const tables = await db.$queryRaw<{ t: string }[]>`
    SELECT table_name AS t FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const hits: string[] = [];
  for (const { t } of tables) {
    const rows = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM ${Prisma.raw(`"${t.replace(/"/g, '""')}"`)} x
      WHERE strpos(to_jsonb(x)::text, ${needle}) > 0`;
    if (rows[0] && rows[0].n > 0n) hits.push(t);
  }
  return hits;
}

describe("secrets in the database and in the logs (child server)", () => {
  let target: Target;
  beforeAll(async () => {
    target = await makeTarget("sec");
  });
  afterAll(async () => {
    await target.drop();
  });

  it("stores API tokens and session cookies only hashed, and never logs them", async () => {
    const h = await target.open();
    const { app, admin } = await makeApp(h.db);
    await h.close();

    const server = spawnServer({ ...target.env, SEED_DEMO: "0" });
    let token = "";
    let cookie = "";
    try {
      const url = await server.ready;
      const login = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: admin.email, password: TEST_PASSWORD }),
      });
      expect(login.status).toBe(200);
      cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
      const csrf = ((await login.json()) as { data: { csrf_token: string } }).data.csrf_token;
      const made = await fetch(`${url}/api/apps/${app.id}/api_keys`, {
        method: "POST",
        headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json" },
        body: JSON.stringify({ name: "scan me" }),
      });
      token = ((await made.json()) as { data: { token: string } }).data.token;
      expect(token).toMatch(/^rly_/);
      const calls: [string, RequestInit][] = [
        [`/api/apps/${app.id}/channels`, { headers: { Authorization: `Token ${token}` } }],
        [`/api/apps/${app.id}/channels?auth_token=${token}`, {}],
        // Failing: a bad parameter, an unknown object, a body that does not parse, a garbled token.
        [`/api/apps/abc/channels?auth_token=${token}`, {}],
        [`/api/conversations/999999`, { headers: { Authorization: `Token ${token}` } }],
        [
          `/api/users/1/props?auth_token=${token}`,
          { method: "POST", headers: { "content-type": "application/json" }, body: "{broken" },
        ],
        [`/api/ping`, { headers: { Authorization: `Token ${token}x` } }],
        [`/api/ping`, { headers: { Authorization: `Token ${token} extra` } }],
      ];
      for (const [path, init] of calls) {
        const r = await fetch(url + path, init);
        expect(r.status, path).toBeLessThan(500);
        expect(await r.text(), path).not.toContain(token.slice(4));
      }
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await server.exited;
    }
    const secret = token.slice(4);
    expect(server.output()).not.toContain(secret);
    expect(server.output()).not.toContain(cookie.split("=")[1]!.slice(4));

    const db = await target.open();
    try {
      expect(await rowsContaining(db.db, secret)).toEqual([]);
      expect(await rowsContaining(db.db, cookie.split("=")[1]!)).toEqual([]);
      // The scan can find things: the prefix shown in the key list is stored.
      expect(await rowsContaining(db.db, token.slice(0, 10))).toEqual(["api_tokens"]);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe("in-process checks", () => {
  const upload = async (
    s: TestServer,
    a: TestApp,
    conversation: string,
    name: string,
    bytes: Buffer | string,
  ) => {
    const fd = new FormData();
    fd.set("body", "file");
    fd.set("attachment", new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)]), name);
    return s.call(`/api/conversations/${conversation}/reply`, {
      method: "POST",
      headers: { Authorization: `Token ${a.token}` },
      body: fd,
    });
  };

  it("refuses uploads whose content is not what their name claims, and writes nothing", async ({
    server: s,
    app: a,
  }) => {
    const user = await makeUser(s.db, a.app.id);
    const started = await s.call(`/api/users/${user.id}/startconversation`, {
      method: "POST",
      headers: { Authorization: `Token ${a.token}` },
      json: { body: "hi" },
    });
    const conv = String((started.body.data as { id: number }).id);
    const exe = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"), Buffer.alloc(64, 0)]);
    const refused: [string, Buffer | string][] = [
      ["photo.png", "<html><script>alert(1)</script></html>"],
      ["photo.png", exe],
      ["photo.jpg", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])],
      ["notes.txt", exe],
      ["doc.pdf", "<svg onload=alert(1)>"],
      ["image.svg", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ["setup.exe", exe],
      ["page.htm", "<script>alert(1)</script>"],
      ["noextension", "hello"],
    ];
    for (const [name, bytes] of refused) {
      const before = await fingerprint(s.db);
      const r = await upload(s, a, conv, name, bytes);
      expect({ status: r.status, error: r.body.meta.error }, `${name}: ${r.text.slice(0, 200)}`).toEqual({
        status: 400,
        error: "ValidationError",
      });
      expect(await fingerprint(s.db), name).toBe(before);
    }
    // An allowed HTML file is stored, but served as a sandboxed download, never rendered on our origin.
    const ok = await upload(s, a, conv, '"><img src=x onerror=alert(1)>.html', "<script>alert(1)</script>");
    expect(ok.status, ok.text).toBe(200);
    const att = (ok.body.data as { attachments: { url: string }[] }).attachments[0]!;
    const res = await fetch(att.url.startsWith("http") ? att.url : s.url + att.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename\*=UTF-8''[^"<>]*$/);
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("sets the session cookie HttpOnly, SameSite and Path=/, Secure behind HTTPS", async ({
    server: s,
    app: a,
  }) => {
    for (const proto of ["http", "https"]) {
      const r = await fetch(`${s.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-proto": proto },
        body: JSON.stringify({ email: a.admin.email, password: TEST_PASSWORD }),
      });
      expect(r.status).toBe(200);
      const attrs = (r.headers.get("set-cookie") ?? "").split(";").map((x) => x.trim().toLowerCase());
      expect(attrs[0]).toMatch(/^relay_session=rls_/);
      expect(attrs).toContain("httponly");
      expect(attrs.some((x) => x === "samesite=lax" || x === "samesite=strict")).toBe(true);
      expect(attrs).toContain("path=/");
      expect(attrs.includes("secure"), proto).toBe(proto === "https");
    }
  });

  it("refuses panel writes without the CSRF header, with a wrong one, and cross-site form posts", async ({
    server: s,
    app: a,
  }) => {
    const op = await makeSession(s.db, a.admin.id);
    const path = `/api/apps/${a.app.id}/api_keys`;
    const attempts: [string, Record<string, string>, string][] = [
      ["cookie only", { cookie: op.cookie, "content-type": "application/json" }, '{"name":"csrf"}'],
      [
        "wrong token",
        {
          cookie: op.cookie,
          "x-csrf-token": `${op.csrf.slice(0, -2)}xx`,
          "content-type": "application/json",
        },
        '{"name":"csrf"}',
      ],
      ["empty token", { cookie: op.cookie, "x-csrf-token": "", "content-type": "application/json" }, "{}"],
      [
        "another session's token",
        { cookie: op.cookie, "x-csrf-token": (await makeSession(s.db, a.admin.id)).csrf },
        "name=csrf",
      ],
      [
        "cross-site form post",
        {
          cookie: op.cookie,
          origin: "https://evil.example",
          referer: "https://evil.example/page",
          "content-type": "application/x-www-form-urlencoded",
        },
        "name=csrf&x_csrf_token=guess",
      ],
      [
        "cross-site multipart post",
        { cookie: op.cookie, origin: "null", "content-type": "multipart/form-data; boundary=x" },
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\ncsrf\r\n--x--\r\n',
      ],
    ];
    for (const [what, headers, body] of attempts) {
      for (const method of ["POST", "DELETE"]) {
        const before = await fingerprint(s.db);
        const url = method === "POST" ? path : `${path}/1`;
        const r = await s.call(url, { method, headers, body });
        expect({ status: r.status, error: r.body.meta.error }, `${what} ${method}: ${r.text}`).toEqual({
          status: 403,
          error: "PermissionDenied",
        });
        expect(await fingerprint(s.db), what).toBe(before);
      }
    }
    // The same request with the right header goes through, so the refusals above are about CSRF.
    const good = await s.call(path, {
      method: "POST",
      headers: { cookie: op.cookie, "x-csrf-token": op.csrf },
      json: { name: "csrf" },
    });
    expect(good.status, good.text).toBe(200);
  });
});
