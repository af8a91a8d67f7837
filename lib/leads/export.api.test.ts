import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { makeApp, makeToken } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";

async function exportCsv(s: TestServer, a: TestApp, params: Record<string, unknown>, token = a.token) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) q.set(k, typeof v === "string" ? v : JSON.stringify(v));
  const res = await fetch(`${s.url}/api/apps/${a.app.id}/users/export?${q}`, {
    headers: { Authorization: `Token ${token}` },
  });
  return { res, text: await res.text() };
}

/** A minimal CSV reader for the test (quoted cells, doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else if (c !== "\r") cell += c;
  }
  return rows;
}

describe("GET /apps/{id}/users/export", () => {
  it("streams the matching leads with system, extra props and tags, formula-safe", async ({
    server: s,
    app: a,
  }) => {
    const run = `run${Date.now()}`;
    const evil = await s.db.user.create({
      data: {
        appId: a.app.id,
        name: '=HYPERLINK("http://x")',
        email: "evil@x.test",
        propsCustom: { run, plan: "pro, annual" },
      },
    });
    const plain = await s.db.user.create({
      data: { appId: a.app.id, name: "Plain", sessions: 3, propsCustom: { run, plan: "free" } },
    });
    // Not a lead (nothing known), so not exported even though the prop matches.
    await s.db.user.create({ data: { appId: a.app.id, propsCustom: { run } } });
    ok(await a.api.postJson(`/api/users/${plain.id}/tags`, { tag: "vip" }));
    const filters = {
      type: "and",
      filters: [{ property_name: "run", type: "str_eq", value: { value: run } }],
    };

    const { res, text } = await exportCsv(s, a, { filters, props_extra: ["plan"] });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="leads-/);
    const rows = parseCsv(text);
    const header = rows[0]!;
    expect(header.slice(0, 3)).toEqual(["id", "$name", "$email"]);
    expect(header.slice(-2)).toEqual(["plan", "tags"]);
    expect(rows).toHaveLength(3);
    const col = (r: string[], name: string) => r[header.indexOf(name)];
    const [first, second] = [rows[1]!, rows[2]!];
    expect(col(first, "id")).toBe(String(evil.id));
    expect(col(first, "$name")).toBe('\'=HYPERLINK("http://x")');
    expect(col(first, "plan")).toBe("pro, annual");
    expect(col(second, "$sessions")).toBe("3");
    expect(col(second, "tags")).toBe("vip");
  });

  it("reads every matching lead across keyset batches, in ID order", async ({ server: s, app: a }) => {
    const run = `bulk${Date.now()}`;
    const n = 2_345;
    await s.db.user.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        appId: a.app.id,
        email: `b${i}@${run}.test`,
        propsCustom: { run },
      })),
    });
    const { res, text } = await exportCsv(s, a, {
      filters: { type: "and", filters: [{ property_name: "run", type: "str_eq", value: { value: run } }] },
    });
    expect(res.status).toBe(200);
    const rows = parseCsv(text).slice(1);
    expect(rows).toHaveLength(n);
    const ids = rows.map((r) => BigInt(r[0]!));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    expect(new Set(rows.map((r) => r[2])).size).toBe(n);
  });

  it("answers a bad filter with a ValidationError envelope, and another app's with PermissionDenied", async ({
    server: s,
    app: a,
  }) => {
    const bad = await a.api.get(`/api/apps/${a.app.id}/users/export`, {
      filters: {
        type: "and",
        filters: [{ property_name: "$sessions", type: "str_eq", value: { value: 1 } }],
      },
    });
    const meta = errorOf(bad, 400, "ValidationError");
    expect(Object.keys(meta.error_fields ?? {})[0]).toMatch(/^filters\.filters\.0/);
    const other = await makeApp(s.db);
    errorOf(await client(s, other.token).get(`/api/apps/${a.app.id}/users/export`), 403, "PermissionDenied");
    const tokenOnly = await makeToken(s.db, a.app.id);
    expect((await exportCsv(s, a, {}, tokenOnly)).res.status).toBe(200);
  });
});
