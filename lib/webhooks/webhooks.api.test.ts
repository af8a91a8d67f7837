import { describe, expect } from "vitest";
import { makeAdmin, makeSession } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import { webhookSuite, type Hook } from "./testing";

const { it, w } = webhookSuite();

describe("subscriptions", () => {
  it("creates, lists, reads, changes and deletes", async () => {
    const hook = await w.create(["conversation.user_replied"]);
    expect(hook).toMatchObject({
      app: Number(w.app.app.id),
      url: w.rcv.url,
      events: ["conversation.user_replied"],
    });
    expect(hook.active).toBe(true);
    expect(hook.secret).toMatch(/^whsec_[\w-]{32}$/);
    const list = ok<Hook[]>(await w.api.get(w.base()));
    const listed = list.find((h) => h.id === hook.id)!;
    expect(listed.secret).toBeUndefined();
    expect(listed.secret_hint).toBe(`${hook.secret!.slice(0, 10)}…`);
    expect(ok<Hook>(await w.api.get(`${w.base()}/${hook.id}`)).secret).toBe(hook.secret);

    const changed = ok<Hook>(
      await w.server.call(`${w.base()}/${hook.id}`, {
        method: "PATCH",
        headers: { Authorization: `Token ${w.app.token}` },
        json: { events: ["user.event", "conversation.closed"], active: false },
      }),
    );
    expect(changed).toMatchObject({ events: ["user.event", "conversation.closed"], active: false });
    const rotated = ok<Hook>(
      await w.api.postJson(`${w.base()}/${hook.id}`, { rotate_secret: true, active: true }),
    );
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.active).toBe(true);
    const own = ok<Hook>(
      await w.api.postJson(`${w.base()}/${hook.id}`, { secret: "my-own-secret-0123456789" }),
    );
    expect(own.secret).toBe("my-own-secret-0123456789");

    ok(await w.api.del(`${w.base()}/${hook.id}`));
    errorOf(await w.api.get(`${w.base()}/${hook.id}`), 400, "LookupError");
  });

  it("answers concurrent deletes and updates of one webhook with one success and LookupErrors", async () => {
    const hook = await w.create(["user.event"]);
    const url = `${w.base()}/${hook.id}`;
    const all = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? w.api.postJson(url, { active: false }) : w.api.del(url))),
    );
    expect(all.filter((r, i) => i % 2 === 0 && r.status === 200)).toHaveLength(1);
    for (const r of all.filter((x) => x.status !== 200)) errorOf(r, 400, "LookupError");
    errorOf(await w.api.get(url), 400, "LookupError");
  });

  it("refuses bad input", async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const meta = errorOf(await w.api.postJson(w.base(), body), 400, "ValidationError");
      expect(Object.keys(meta.error_fields ?? {}), JSON.stringify(meta)).toContain(field);
    };
    await bad({ url: "not a url", events: ["user.event"] }, "url");
    await bad({ url: "ftp://example.com/x", events: ["user.event"] }, "url");
    await bad({ events: ["user.event"] }, "url");
    await bad({ url: w.rcv.url, events: ["user.nope"] }, "events.0");
    await bad({ url: w.rcv.url, events: ["test"] }, "events.0");
    await bad({ url: w.rcv.url, events: [] }, "events");
    await bad({ url: w.rcv.url, events: ["user.event"], secret: "short" }, "secret");
    const hook = await w.create(["user.event"]);
    const patch = await w.api.postJson(`${w.base()}/${hook.id}`, {
      secret: "0123456789abcdef",
      rotate_secret: true,
    });
    errorOf(patch, 400, "ValidationError");
  });

  it("keeps apps apart", async () => {
    const hook = await w.create(["user.event"]);
    const other = client(w.server, w.other.token);
    for (const r of [
      await other.get(w.base()),
      await other.postJson(w.base(), { url: w.rcv.url, events: ["user.event"] }),
      await other.get(`${w.base()}/${hook.id}`),
      await other.postJson(`${w.base()}/${hook.id}`, { active: false }),
      await other.del(`${w.base()}/${hook.id}`),
      await other.postJson(`${w.base()}/${hook.id}/test`),
      await other.get(`${w.base()}/${hook.id}/deliveries`),
    ]) {
      expect(errorOf(r, 403, "PermissionDenied")).toBeTruthy();
      expect(r.text).not.toContain(hook.secret!);
    }
    // Through its own app's path, another app's webhook does not exist.
    errorOf(await other.get(`${w.base(w.other.app.id)}/${hook.id}`), 400, "LookupError");
    expect(ok<Hook>(await w.api.get(`${w.base()}/${hook.id}`)).active).toBe(true);
  });

  it("serves operators through their session", async () => {
    const op = await makeSession(w.server.db, w.app.admin.id);
    const r = await w.server.call(w.base(), {
      method: "POST",
      headers: { cookie: op.cookie, "x-csrf-token": op.csrf },
      json: { url: w.rcv.url, events: ["user.event"] },
    });
    expect(ok<Hook>(r).secret).toMatch(/^whsec_/);
    const outsider = await makeSession(w.server.db, (await makeAdmin(w.server.db)).id);
    errorOf(await w.server.call(w.base(), { headers: { cookie: outsider.cookie } }), 403, "PermissionDenied");
  });
});
