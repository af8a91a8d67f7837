import { describe, expect } from "vitest";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeSession } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import type { MessengerSettings, MessengerSettingsWithSecret } from "./schemas";
import { MESSENGER_DEFAULTS } from "./settings";
import { userHashOf, verifyUserHash } from "./identity";

const base = (a: TestApp, app: bigint | string = a.app.id) => `/api/v2/apps/${app}/messenger`;
const read = async (a: TestApp, c: Client = a.api) => ok<MessengerSettings>(await c.get(base(a)));
const update = async (a: TestApp, params: Record<string, unknown>) =>
  ok<MessengerSettings>(await a.api.postJson(base(a), params));

describe("messenger settings", () => {
  it("are made with defaults on first read, the secret masked", async ({ app: a, other: b }) => {
    const first = await read(a);
    expect(first).toMatchObject({
      app: Number(a.app.id),
      allowed_origins: [],
      // New apps verify identities (the safe default); the owner may turn it off.
      identity_required: true,
      accent_color: MESSENGER_DEFAULTS.accentColor,
      position: "right",
      greeting: MESSENGER_DEFAULTS.greeting,
    });
    expect(first.public_key).toMatch(/^mk_[\w-]{24}$/);
    expect(first.identity_secret_hint).toMatch(/^[0-9a-f]{6}…$/);
    expect(first).not.toHaveProperty("identity_secret");
    expect(await read(a)).toEqual(first);
    // Each app has its own key.
    expect(ok<MessengerSettings>(await b.api.get(base(a, b.app.id))).public_key).not.toBe(first.public_key);
  });

  // PostgreSQL runs these inserts side by side; the embedded database takes them one at a time.
  it("are made once when first reads come together", async ({ server: s, app: a }) => {
    const c = await makeApp(s.db);
    const reads = await Promise.all(
      Array.from({ length: 6 }, () => client(s, c.token).get(base(a, c.app.id))),
    );
    const keys = new Set(reads.map((r) => ok<MessengerSettings>(r).public_key));
    expect(keys.size).toBe(1);
    expect(await s.db.messengerSettings.count({ where: { appId: c.app.id } })).toBe(1);
  });

  it("change only what is given, origins normalized and deduplicated", async ({ app: a }) => {
    const before = await read(a);
    const after = await update(a, {
      greeting: "Hello!",
      accent_color: "#AA00ff",
      position: "left",
      allowed_origins: ["HTTPS://Shop.Example.com/", "https://shop.example.com:443", "http://localhost:3000"],
      identity_required: false,
    });
    expect(after).toMatchObject({
      greeting: "Hello!",
      accent_color: "#aa00ff",
      position: "left",
      allowed_origins: ["https://shop.example.com", "http://localhost:3000"],
      identity_required: false,
      team_intro: before.team_intro,
      public_key: before.public_key,
      identity_secret_hint: before.identity_secret_hint,
    });
    expect(await read(a)).toEqual(after);
    // A form body's comma-separated list; an empty one allows every origin again.
    expect(
      ok<MessengerSettings>(await a.api.postForm(base(a), { allowed_origins: "" })).allowed_origins,
    ).toEqual([]);
  });

  it("refuse what is not an origin, naming it, and change nothing", async ({ app: a }) => {
    const before = await update(a, { allowed_origins: ["https://ok.example.com"] });
    const meta = errorOf(
      await a.api.postJson(base(a), {
        allowed_origins: ["https://ok.example.com", "shop.example.com/path"],
        greeting: "x",
      }),
      400,
      "ValidationError",
    );
    expect(meta.error_fields).toEqual({
      "allowed_origins.1": '"shop.example.com/path" is not an origin: write scheme://host[:port], no path',
    });
    expect(await read(a)).toEqual(before);
  });

  it("refuse a bad colour, position or over-long text", async ({ app: a }) => {
    const cases: [Record<string, unknown>, string][] = [
      [{ accent_color: "blue" }, "accent_color"],
      [{ accent_color: "#12345" }, "accent_color"],
      [{ position: "top" }, "position"],
      [{ greeting: "g".repeat(201) }, "greeting"],
      [{ offline_text: "o".repeat(501) }, "offline_text"],
      [{ allowed_origins: Array.from({ length: 51 }, (_, i) => `https://s${i}.test`) }, "allowed_origins"],
    ];
    for (const [params, field] of cases) {
      const meta = errorOf(await a.api.postJson(base(a), params), 400, "ValidationError");
      expect(Object.keys(meta.error_fields ?? {}), field).toEqual([field]);
    }
  });

  it("show a rotated identity secret once; hashes follow the new one", async ({ server: s, app: a }) => {
    const before = await read(a);
    const rotated = ok<MessengerSettingsWithSecret>(await a.api.postJson(`${base(a)}/identity_secret`));
    expect(rotated.identity_secret).toMatch(/^[0-9a-f]{64}$/);
    const after = await read(a);
    expect(after).not.toHaveProperty("identity_secret");
    expect(after.identity_secret_hint).toBe(`${rotated.identity_secret.slice(0, 6)}…`);
    expect(after.public_key).toBe(before.public_key);
    const stored = await s.db.messengerSettings.findUniqueOrThrow({ where: { appId: a.app.id } });
    expect(stored.identitySecret).toBe(rotated.identity_secret);
    expect(verifyUserHash(stored.identitySecret, "u1", userHashOf(rotated.identity_secret, "u1"))).toBe(true);
    const again = ok<MessengerSettingsWithSecret>(await a.api.postJson(`${base(a)}/identity_secret`));
    expect(again.identity_secret).not.toBe(rotated.identity_secret);
  });

  it("regenerate the public key", async ({ app: a }) => {
    const before = await read(a);
    const after = ok<MessengerSettings>(await a.api.postJson(`${base(a)}/public_key`));
    expect(after.public_key).toMatch(/^mk_[\w-]{24}$/);
    expect(after.public_key).not.toBe(before.public_key);
    expect(after).not.toHaveProperty("identity_secret");
    expect((await read(a)).public_key).toBe(after.public_key);
  });

  it("are managed by the app's operators too", async ({ server: s, app: a }) => {
    const op = client(s, await makeSession(s.db, a.admin.id));
    expect((await read(a, op)).app).toBe(Number(a.app.id));
    const changed = ok<MessengerSettings>(await op.postJson(base(a), { team_intro: "We are two." }));
    expect(changed.team_intro).toBe("We are two.");
  });

  it("are another app's business: PermissionDenied, nothing shown or changed", async ({
    app: a,
    other: b,
  }) => {
    const theirs = ok<MessengerSettings>(await b.api.get(base(a, b.app.id)));
    for (const r of [
      await a.api.get(base(a, b.app.id)),
      await a.api.postJson(base(a, b.app.id), { greeting: "hijacked" }),
      await a.api.postJson(`${base(a, b.app.id)}/identity_secret`),
      await a.api.postJson(`${base(a, b.app.id)}/public_key`),
    ]) {
      errorOf(r, 403, "PermissionDenied");
      expect(r.text).not.toContain(theirs.public_key);
    }
    expect(ok<MessengerSettings>(await b.api.get(base(a, b.app.id)))).toEqual(theirs);
  });

  it("exist in v2 only", async ({ app: a }) => {
    errorOf(await a.api.get(`/api/v1/apps/${a.app.id}/messenger`), 404, "NotFound");
  });
});
