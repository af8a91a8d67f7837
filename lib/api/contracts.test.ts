import { describe, expect } from "vitest";
import { z } from "zod";
import type { Called } from "../testing/server";
import { serverTest } from "../testing/server-test";
import { makeApp, makeSession, TEST_PASSWORD } from "../testing/factories";
import { fillPath, makeCatalogObjects, validParams, type CatalogObjects } from "../testing/catalog-objects";
import { catalog } from "../compose/catalog";
import type { Endpoint, VersionSpec } from "./endpoint";
import { testEmailConfig } from "../email/testing";

const INBOUND_SECRET = "contract-inbound-secret";
const it = serverTest({
  webhookAllowPrivate: true,
  email: testEmailConfig(undefined, { inboundSecret: INBOUND_SECRET }),
});

/**
 * Every endpoint of the catalog, called with valid input in each of its versions: a 200's `data` and `meta` must
 * match the schemas the endpoint declares (the OpenAPI document's and the panel's types), and a file its declared
 * content type. Writes run before deletes, and logout last, so that each call finds the objects it names.
 */
const rank = (e: Endpoint) => (e.spec.path === "/auth/logout" ? 2 : e.spec.method === "DELETE" ? 1 : 0);
const ordered = [...catalog].sort((x, y) => rank(x) - rank(y));

/**
 * Requests the catalog's generic valid parameters cannot make: a real login, a signed link, a CSV upload, a raw
 * email with the inbound secret.
 */
function special(
  e: Endpoint,
  o: CatalogObjects,
  email: string,
  attachmentUrl: string,
  buttons: string,
): { json?: unknown; url?: string; body?: BodyInit; headers?: Record<string, string> } | undefined {
  const key = `${e.spec.method} ${e.spec.path}`;
  if (key === "POST /email/inbound")
    return {
      body: `From: someone@example.test\r\nTo: app-${o.app}@mail.test\r\nSubject: Hi\r\n\r\nHello\r\n`,
      headers: { authorization: `Bearer ${INBOUND_SECRET}`, "content-type": "message/rfc822" },
    };
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

/** The boolean parameters of a read (its optional parts), all set to `value`; by_user_id changes what `id` means. */
function switches(params: z.ZodType, value: "true" | "false"): Record<string, string> {
  const shape = params instanceof z.ZodObject ? (params.shape as Record<string, z.ZodType>) : {};
  return Object.fromEntries(
    Object.entries(shape)
      .filter(
        ([k, x]) =>
          k !== "by_user_id" && z.toJSONSchema(x, { io: "input", unrepresentable: "any" }).type === "boolean",
      )
      .map(([k]) => [k, value]),
  );
}

/** What is wrong with a 200 for the version's declared response, if anything. */
function mismatch(vspec: VersionSpec<z.ZodType>, r: Called): string | undefined {
  const declared = vspec.response;
  if ("contentType" in declared) {
    const type = r.headers.get("content-type") ?? "";
    // `*/*`: the file's own type (attachments), anything but the envelope.
    const ok =
      declared.contentType === "*/*"
        ? !type.includes("application/json")
        : type.includes(declared.contentType);
    return ok ? undefined : `content type ${type}`;
  }
  const data = declared.safeParse(r.body.data);
  if (!data.success) return `data ${JSON.stringify(data.error.issues.slice(0, 3))}`;
  const { status, ...extras } = r.body.meta;
  if (status !== 200) return `meta.status ${status}`;
  if (!vspec.meta)
    return Object.keys(extras).length ? `undeclared meta ${Object.keys(extras).join()}` : undefined;
  const meta = vspec.meta.safeParse(extras);
  return meta.success ? undefined : `meta ${JSON.stringify(meta.error.issues.slice(0, 3))}`;
}

describe.each(["v1", "v2"] as const)("%s", (v) => {
  it("every endpoint's 200 matches its declared response", async ({ server: s }) => {
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
    const call = (e: Endpoint, params: Record<string, unknown>) => {
      const read = e.spec.method === "GET" || e.spec.method === "DELETE";
      const q = new URLSearchParams();
      if (read)
        for (const [k, x] of Object.entries(params)) q.set(k, typeof x === "string" ? x : JSON.stringify(x));
      const own = special(e, o, a.admin.email, attachmentUrl, buttons);
      const url = own?.url ?? `/api/${v}${fillPath(e.spec.path, o)}${q.size ? `?${q.toString()}` : ""}`;
      return s.call(url.replace(/^https?:\/\/[^/]+/, ""), {
        method: e.spec.method,
        headers: own?.headers ?? { cookie: op.cookie, "X-CSRF-Token": op.csrf },
        ...(own?.json ? { json: own.json } : own?.body ? { body: own.body } : read ? {} : { json: params }),
      });
    };
    const failed: string[] = [];
    for (const e of ordered) {
      const vspec = e.spec[v];
      if (!vspec) continue;
      const base = validParams(e.spec.method, e.spec.path, o, a.admin.id);
      // A read is also asked with every optional part switched on, then off, and with IDs as strings.
      const variants: [string, Record<string, unknown>][] =
        e.spec.method === "GET"
          ? [
              ["", base],
              [" (switches on)", { ...base, ...switches(vspec.params, "true") }],
              [" (switches off)", { ...base, ...switches(vspec.params, "false") }],
              [" (id_as_string)", { ...base, id_as_string: "true" }],
            ]
          : [["", base]];
      for (const [variant, params] of variants) {
        const name = `${v} ${e.spec.method} ${e.spec.path}${variant}`;
        const r = await call(e, params);
        if (r.status !== 200) {
          failed.push(`${name}: ${r.status} ${r.text.slice(0, 200)}`);
          continue;
        }
        const problem = mismatch(vspec, r);
        if (problem) failed.push(`${name}: ${problem}`);
      }
    }
    expect(failed).toEqual([]);
  });
});
