import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { serverTest, type TestApp } from "../testing/server-test";
import { makeAdmin, makeApp, makeSession, makeUser, unique } from "../testing/factories";
import { fillPath, makeCatalogObjects, validParams, type CatalogObjects } from "../testing/catalog-objects";
import { fingerprint } from "../testing/fingerprint";
import { CHANNEL_KINDS } from "../contract/socket";
import { catalog } from "../compose/catalog";

const it = serverTest({ webhookAllowPrivate: true });

/**
 * Tenancy: every endpoint that names an object in its path, called on app A's objects by app B's token and by an
 * operator who is not a member of A. The answer is a bare refusal (PermissionDenied or LookupError) that quotes
 * nothing of A, and nothing of A changes. (That an ID exists elsewhere is visible: the spec answers PermissionDenied
 * for another app's object and LookupError for none.)
 */
let a: Awaited<ReturnType<typeof makeApp>>;
let outsider: { cookie: string; csrf: string };
/** A's objects by path parameter, and strings that must never reach B. */
let objects: CatalogObjects;
let secrets: string[];

it.beforeAll(async ({ server: s, other: b }) => {
  a = await makeApp(s.db, { name: unique("SecretApp") });
  const op = await makeAdmin(s.db, { appId: b.app.id });
  outsider = await makeSession(s.db, op.id);
  objects = await makeCatalogObjects(s, a);
  secrets = [...objects.secrets, a.channel.name];
});

/** Everything of A that a write could change in place, for "nothing of A changed". */
async function stateOfA(s: TestServer): Promise<string> {
  const appId = a.app.id;
  const [app, users, convs, parts, notes, tags, segs, hooks, tokens, jobs] = await Promise.all([
    s.db.app.findUniqueOrThrow({ where: { id: appId } }),
    s.db.user.findMany({ where: { appId }, orderBy: { id: "asc" } }),
    s.db.conversation.findMany({ where: { appId }, orderBy: { id: "asc" } }),
    s.db.conversationPart.findMany({ where: { conversation: { appId } }, orderBy: { id: "asc" } }),
    s.db.userNote.findMany({ where: { user: { appId } }, orderBy: { id: "asc" } }),
    s.db.userTag.findMany({ where: { user: { appId } } }),
    s.db.segment.findMany({ where: { appId }, orderBy: { id: "asc" } }),
    s.db.webhookSubscription.findMany({ where: { appId }, orderBy: { id: "asc" } }),
    s.db.apiKey.findMany({ where: { appId }, orderBy: { id: "asc" }, omit: { lastUsed: true } }),
    s.db.importJob.findMany({ where: { appId }, orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify(
    [app, users, convs, parts, notes, tags, segs, hooks, tokens, jobs],
    (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
  );
}

const withObject = catalog.filter((e) => e.spec.path.includes("{"));

type Who = "token" | "session";
async function call(s: TestServer, b: TestApp, who: Who, v: "v1" | "v2", e: (typeof catalog)[number]) {
  const path = fillPath(e.spec.path, objects);
  // Assigning to B's own operator: the refusal must come from the conversation, not the assignee.
  const params = validParams(e.spec.method, e.spec.path, objects, b.admin.id);
  const read = e.spec.method === "GET" || e.spec.method === "DELETE";
  const q = new URLSearchParams();
  if (read)
    for (const [k, x] of Object.entries(params)) q.set(k, typeof x === "string" ? x : JSON.stringify(x));
  const headers: Record<string, string> =
    who === "token"
      ? { Authorization: `Token ${b.token}` }
      : { cookie: outsider.cookie, "X-CSRF-Token": outsider.csrf };
  return s.call(`/api/${v}${path}${q.size ? `?${q.toString()}` : ""}`, {
    method: e.spec.method,
    headers,
    ...(read ? {} : { json: params }),
  });
}

describe.each(withObject.map((e) => [`${e.spec.method} ${e.spec.path}`, e] as const))("%s", (_n, e) => {
  const versions = (["v1", "v2"] as const).filter((v) => e.spec[v]);
  it.for(["token", "session"] as const)(
    "refuses A's objects to %s of B, revealing nothing",
    async (who, { server: s, other: b }) => {
      for (const v of versions) {
        const before = await stateOfA(s);
        const print = await fingerprint(s.db);
        const r = await call(s, b, who, v, e);
        const what = `${who} ${v} ${e.spec.method} ${fillPath(e.spec.path, objects)}: ${r.text.slice(0, 300)}`;
        expect(["PermissionDenied", "LookupError"], what).toContain(r.body.meta.error);
        for (const secret of secrets) expect(r.text, what).not.toContain(secret);
        expect(await fingerprint(s.db), what).toBe(print);
        expect(await stateOfA(s), what).toBe(before);
        // The refusal carries nothing but its name and a generic message.
        expect(r.body.data, what).toEqual({});
        expect(Object.keys(r.body.meta).sort(), what).toEqual([
          "error",
          "error_message",
          "request_id",
          "status",
        ]);
      }
    },
  );
});

describe("A's objects named in parameters of B's own calls", () => {
  it("refuses them, writes nothing and quotes nothing of A", async ({ server: s, other: b }) => {
    const bUser = await makeUser(s.db, b.app.id);
    const started = await s.call(`/api/users/${bUser.id}/startconversation`, {
      method: "POST",
      headers: { Authorization: `Token ${b.token}` },
      json: { body: "hi" },
    });
    const bConv = started.body.data as { id: number };
    const c = `/api/conversations/${String(bConv.id)}`;
    const inA = {
      type: "and",
      filters: [{ property_name: "$segment", type: "in_segment", value: { value: 0 } }],
    };
    inA.filters[0]!.value.value = Number(objects.segment_id);
    const cases: [string, string, Record<string, unknown>][] = [
      ["POST", `${c}/assign`, { admin: String(a.admin.id) }],
      ["POST", `${c}/reply`, { body: "x", from_admin: String(a.admin.id) }],
      ["POST", `${c}/close`, { from_admin: String(a.admin.id) }],
      ["POST", `${c}/read`, { from_admin: String(a.admin.id) }],
      ["POST", `${c}/quickreply`, { part: objects.part, action: 0 }],
      ["POST", `/api/apps/${b.app.id}/segments`, { name: "leak", filters: inA }],
      ["GET", `/api/apps/${b.app.id}/users?filters=${encodeURIComponent(JSON.stringify(inA))}`, {}],
    ];
    for (const [method, path, json] of cases) {
      const before = await fingerprint(s.db);
      const stateA = await stateOfA(s);
      const r = await s.call(path, {
        method,
        headers: { Authorization: `Token ${b.token}` },
        ...(method === "GET" ? {} : { json }),
      });
      const what = `${method} ${path}: ${r.text.slice(0, 300)}`;
      expect(r.status, what).toBeGreaterThanOrEqual(400);
      expect(r.status, what).toBeLessThan(500);
      for (const secret of secrets) expect(r.text, what).not.toContain(secret);
      expect(await fingerprint(s.db), what).toBe(before);
      expect(await stateOfA(s), what).toBe(stateA);
    }
    const row = await s.db.conversation.findUniqueOrThrow({ where: { id: BigInt(bConv.id) } });
    expect(row.assigneeId).not.toBe(a.admin.id);
  });
});

describe("imports name their app", () => {
  const importAs = (
    s: TestServer,
    headers: Record<string, string>,
    app: string,
    where: "query" | "field",
  ) => {
    const fd = new FormData();
    fd.set("merge_field", "$email");
    if (where === "field") fd.set("app", app);
    fd.set("file", new Blob(["email\nimported@example.test\n"]), "u.csv");
    return s.call(`/api/users/import${where === "query" ? `?app=${app}` : ""}`, {
      method: "POST",
      headers,
      body: fd,
    });
  };

  it("refuses B's token and B's operator naming A, in the query or as a multipart field", async ({
    server: s,
    other: b,
  }) => {
    for (const where of ["query", "field"] as const) {
      const callers: Record<string, string>[] = [
        { Authorization: `Token ${b.token}` },
        { cookie: outsider.cookie, "X-CSRF-Token": outsider.csrf },
      ];
      for (const headers of callers) {
        const before = await stateOfA(s);
        const r = await importAs(s, headers, objects.app, where);
        expect(r.body.meta.error, `${where}: ${r.text.slice(0, 200)}`).toBe("PermissionDenied");
        expect(await stateOfA(s)).toBe(before);
      }
    }
  });

  it("imports into the app an operator of two apps names in the multipart field", async ({
    server: s,
    other: b,
  }) => {
    const both = await makeAdmin(s.db, { appId: b.app.id });
    await s.db.appAdmin.create({ data: { appId: a.app.id, adminId: both.id } });
    const op = await makeSession(s.db, both.id);
    const headers = { cookie: op.cookie, "X-CSRF-Token": op.csrf };
    for (const [app, where] of [
      [a.app.id, "field"],
      [b.app.id, "field"],
      [a.app.id, "query"],
    ] as const) {
      const r = await importAs(s, headers, String(app), where);
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      const job = await s.db.importJob.findUniqueOrThrow({
        where: { id: BigInt((r.body.data as { id: number }).id) },
      });
      expect(job.appId, `app named in the ${where}`).toBe(app);
    }
  });
});

describe("socket.io tenancy", () => {
  it.for(["token", "session"] as const)(
    "refuses every channel of A to B's %s",
    async (who, { other: b, sockets }) => {
      const socket = await sockets.open(who === "token" ? { token: b.token } : { cookie: outsider.cookie });
      const channels = CHANNEL_KINDS.flatMap((k) => [`${k}.${a.app.id}`, `${k}.${a.app.id}.${objects.user}`]);
      for (let i = 0; i < channels.length; i += 40) {
        const chunk = channels.slice(i, i + 40);
        const ack = (await socket.emitWithAck("subscribe", { channels: chunk, after: 0 })) as {
          subscribed: string[];
          refused: string[];
          position: number;
        };
        expect(ack).toEqual({ subscribed: [], refused: chunk, position: ack.position });
      }
      const own = (await socket.emitWithAck("subscribe", { channels: [`conversation.${b.app.id}`] })) as {
        subscribed: string[];
      };
      expect(own.subscribed).toEqual([`conversation.${b.app.id}`]);
    },
  );
});
