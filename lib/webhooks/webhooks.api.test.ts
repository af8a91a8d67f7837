import { afterAll, afterEach, describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { serverTest, type TestApp } from "../testing/fixture";
import { makeAdmin, makeSession } from "../testing/factories";
import { client, type Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { webhookDispatcher, type Dispatcher } from "./dispatcher";
import { startReceiver, type Receiver } from "./testing";

const it = serverTest({ webhookAllowPrivate: true });

let s: TestServer;
let a: TestApp;
let b: TestApp;
let api: Client;
let rcv: Receiver;
let dispatcher: Dispatcher;

it.beforeAll(async ({ server, app, other }) => {
  s = server;
  a = app;
  b = other;
  api = app.api;
  rcv = await startReceiver();
  dispatcher = webhookDispatcher(s.server.runtime)!;
  // Retries in tenths of a second instead of seconds.
  dispatcher.options.retryBaseMs = 100;
});
afterEach(() => {
  rcv.respond = () => 200;
  s.server.runtime.config.webhookAllowPrivate = true;
});
afterAll(async () => {
  await rcv.close();
});

interface Hook {
  id: number;
  app: number;
  url: string;
  events: string[];
  active: boolean;
  secret?: string;
  secret_hint?: string;
}

const base = (app: bigint | number = a.app.id) => `/api/v2/apps/${app}/webhooks`;
const create = async (events: string[], extra: Record<string, unknown> = {}) =>
  ok<Hook>(await api.postJson(base(), { url: rcv.url, events, ...extra }));

describe("subscriptions", () => {
  it("creates, lists, reads, changes and deletes", async () => {
    const hook = await create(["conversation.user_replied"]);
    expect(hook).toMatchObject({
      app: Number(a.app.id),
      url: rcv.url,
      events: ["conversation.user_replied"],
    });
    expect(hook.active).toBe(true);
    expect(hook.secret).toMatch(/^whsec_[\w-]{32}$/);
    const list = ok<Hook[]>(await api.get(base()));
    const listed = list.find((h) => h.id === hook.id)!;
    expect(listed.secret).toBeUndefined();
    expect(listed.secret_hint).toBe(`${hook.secret!.slice(0, 10)}…`);
    expect(ok<Hook>(await api.get(`${base()}/${hook.id}`)).secret).toBe(hook.secret);

    const changed = ok<Hook>(
      await s.call(`${base()}/${hook.id}`, {
        method: "PATCH",
        headers: { Authorization: `Token ${a.token}` },
        json: { events: ["user.event", "conversation.closed"], active: false },
      }),
    );
    expect(changed).toMatchObject({ events: ["user.event", "conversation.closed"], active: false });
    const rotated = ok<Hook>(
      await api.postJson(`${base()}/${hook.id}`, { rotate_secret: true, active: true }),
    );
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.active).toBe(true);
    const own = ok<Hook>(await api.postJson(`${base()}/${hook.id}`, { secret: "my-own-secret-0123456789" }));
    expect(own.secret).toBe("my-own-secret-0123456789");

    ok(await api.del(`${base()}/${hook.id}`));
    errorOf(await api.get(`${base()}/${hook.id}`), 400, "LookupError");
  });

  it("answers concurrent deletes and updates of one webhook with one success and LookupErrors", async () => {
    const hook = await create(["user.event"]);
    const url = `${base()}/${hook.id}`;
    const all = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? api.postJson(url, { active: false }) : api.del(url))),
    );
    expect(all.filter((r, i) => i % 2 === 0 && r.status === 200)).toHaveLength(1);
    for (const r of all.filter((x) => x.status !== 200)) errorOf(r, 400, "LookupError");
    errorOf(await api.get(url), 400, "LookupError");
  });

  it("refuses bad input", async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const meta = errorOf(await api.postJson(base(), body), 400, "ValidationError");
      expect(Object.keys(meta.error_fields ?? {}), JSON.stringify(meta)).toContain(field);
    };
    await bad({ url: "not a url", events: ["user.event"] }, "url");
    await bad({ url: "ftp://example.com/x", events: ["user.event"] }, "url");
    await bad({ events: ["user.event"] }, "url");
    await bad({ url: rcv.url, events: ["user.nope"] }, "events.0");
    await bad({ url: rcv.url, events: ["test"] }, "events.0");
    await bad({ url: rcv.url, events: [] }, "events");
    await bad({ url: rcv.url, events: ["user.event"], secret: "short" }, "secret");
    const hook = await create(["user.event"]);
    const patch = await api.postJson(`${base()}/${hook.id}`, {
      secret: "0123456789abcdef",
      rotate_secret: true,
    });
    errorOf(patch, 400, "ValidationError");
  });

  it("keeps apps apart", async () => {
    const hook = await create(["user.event"]);
    const other = client(s, b.token);
    for (const r of [
      await other.get(base()),
      await other.postJson(base(), { url: rcv.url, events: ["user.event"] }),
      await other.get(`${base()}/${hook.id}`),
      await other.postJson(`${base()}/${hook.id}`, { active: false }),
      await other.del(`${base()}/${hook.id}`),
      await other.postJson(`${base()}/${hook.id}/test`),
      await other.get(`${base()}/${hook.id}/deliveries`),
    ]) {
      expect(errorOf(r, 403, "PermissionDenied")).toBeTruthy();
      expect(r.text).not.toContain(hook.secret!);
    }
    // Through its own app's path, another app's webhook does not exist.
    errorOf(await other.get(`${base(b.app.id)}/${hook.id}`), 400, "LookupError");
    expect(ok<Hook>(await api.get(`${base()}/${hook.id}`)).active).toBe(true);
  });

  it("serves operators through their session", async () => {
    const op = await makeSession(s.db, a.admin.id);
    const r = await s.call(base(), {
      method: "POST",
      headers: { cookie: op.cookie, "x-csrf-token": op.csrf },
      json: { url: rcv.url, events: ["user.event"] },
    });
    expect(ok<Hook>(r).secret).toMatch(/^whsec_/);
    const outsider = await makeSession(s.db, (await makeAdmin(s.db)).id);
    errorOf(await s.call(base(), { headers: { cookie: outsider.cookie } }), 403, "PermissionDenied");
  });
});
