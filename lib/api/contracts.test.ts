import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/server";
import { makeApp, makeSession, TEST_PASSWORD } from "../testing/factories";
import { fillPath, makeCatalogObjects, validParams, type CatalogObjects } from "../testing/catalog-objects";
import { catalog } from "./catalog";
import type { Endpoint } from "./endpoint";

/**
 * Every endpoint of the catalog, called with valid input in each of its versions: a 200's `data` and `meta` must
 * match the schemas the endpoint declares (the OpenAPI document's and the panel's types), and a file its declared
 * content type. Writes run before deletes, and logout last, so that each call finds the objects it names.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ webhookAllowPrivate: true });
});
afterAll(async () => {
  await s.close();
});

const rank = (e: Endpoint) => (e.spec.path === "/auth/logout" ? 2 : e.spec.method === "DELETE" ? 1 : 0);
const ordered = [...catalog].sort((x, y) => rank(x) - rank(y));

/** Requests the catalog's generic valid parameters cannot make: a real login, a signed link, a CSV upload. */
function special(e: Endpoint, o: CatalogObjects, email: string, attachmentUrl: string, buttons: string) {
  const key = `${e.spec.method} ${e.spec.path}`;
  if (key === "POST /conversations/{id}/quickreply") return { json: { part: buttons, action: 0 } };
  if (key === "POST /auth/login") return { json: { email, password: TEST_PASSWORD } };
  if (key === "GET /attachments/{id}") return { url: attachmentUrl };
  if (key === "POST /users/import") {
    const fd = new FormData();
    fd.set("merge_field", "$email");
    fd.set("app", o.app);
    fd.set("file", new Blob(["email\nimported@example.test\n"]), "u.csv");
    return { body: fd };
  }
  return undefined;
}

describe.each(["v1", "v2"] as const)("%s", (v) => {
  it("every endpoint's 200 matches its declared response", async () => {
    const a = await makeApp(s.db);
    const o = await makeCatalogObjects(s, a);
    // Operators are managed by owners only.
    await s.db.appAdmin.updateMany({
      where: { appId: a.app.id, adminId: a.admin.id },
      data: { role: "owner" },
    });
    const op = await makeSession(s.db, a.admin.id);
    const offer = await s.call(`/api/v2/conversations/${o.conversation}/reply`, {
      method: "POST",
      headers: { cookie: op.cookie, "X-CSRF-Token": op.csrf },
      json: {
        body: "?",
        actions: JSON.stringify([{ type: "quick_reply", body: "Yes", meta_data: { x: 1 } }]),
      },
    });
    const buttons = String((offer.body.data as { id: number }).id);
    const conv = await s.call(`/api/v2/conversations/${o.conversation}/parts`, {
      headers: { cookie: op.cookie },
    });
    const parts = conv.body.data as { attachments?: { url: string }[] }[];
    const attachmentUrl = parts.flatMap((p) => p.attachments ?? [])[0]!.url;
    const failed: string[] = [];
    for (const e of ordered) {
      const vspec = e.spec[v];
      if (!vspec) continue;
      const name = `${v} ${e.spec.method} ${e.spec.path}`;
      const path = fillPath(e.spec.path, o);
      const params = validParams(e.spec.method, e.spec.path, o, a.admin.id);
      const read = e.spec.method === "GET" || e.spec.method === "DELETE";
      const q = new URLSearchParams();
      if (read)
        for (const [k, x] of Object.entries(params)) q.set(k, typeof x === "string" ? x : JSON.stringify(x));
      const own = special(e, o, a.admin.email, attachmentUrl, buttons);
      const url = own?.url ?? `/api/${v}${path}${q.size ? `?${q.toString()}` : ""}`;
      const r = await s.call(url.replace(/^https?:\/\/[^/]+/, ""), {
        method: e.spec.method,
        headers: { cookie: op.cookie, "X-CSRF-Token": op.csrf },
        ...(own?.json ? { json: own.json } : own?.body ? { body: own.body } : read ? {} : { json: params }),
      });
      if (r.status !== 200) {
        failed.push(`${name}: ${r.status} ${r.text.slice(0, 200)}`);
        continue;
      }
      const declared = vspec.response;
      if ("contentType" in declared) {
        const type = r.headers.get("content-type") ?? "";
        // `*/*`: the file's own type (attachments), anything but the envelope.
        if (declared.contentType === "*/*") expect(type, name).not.toContain("application/json");
        else expect(type, name).toContain(declared.contentType);
        continue;
      }
      const data = declared.safeParse(r.body.data);
      if (!data.success) failed.push(`${name}: data ${JSON.stringify(data.error.issues.slice(0, 3))}`);
      const { status, ...extras } = r.body.meta;
      expect(status, name).toBe(200);
      if (vspec.meta) {
        const meta = vspec.meta.safeParse(extras);
        if (!meta.success) failed.push(`${name}: meta ${JSON.stringify(meta.error.issues.slice(0, 3))}`);
      } else if (Object.keys(extras).length)
        failed.push(`${name}: undeclared meta ${Object.keys(extras).join()}`);
    }
    expect(failed).toEqual([]);
  });
});
