import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeApp } from "../testing/factories";
import { client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import type { CatalogProp } from "../leads/schemas";

describe("GET /apps/{id}/props", () => {
  it("lists system props, custom props with inferred types, and three props per event type", async ({
    server: s,
    app: a,
  }) => {
    const u = await s.db.user.create({ data: { appId: a.app.id, name: "Cat" } });
    ok(
      await a.api.postJson(`/api/users/${u.id}/props`, {
        operations: [
          { op: "update_or_create", key: "plan", value: "pro" },
          { op: "update_or_create", key: "seats", value: 12 },
          { op: "update_or_create", key: "ratio", value: 0.5 },
          { op: "update_or_create", key: "trial", value: true },
          { op: "update_or_create", key: "signup", value: "2024-01-10T10:00:00" },
          { op: "update_or_create", key: "interests", value: ["ai"] },
        ],
      }),
    );
    // A second user whose `seats` is a float: mixed numbers read as float.
    await s.db.user.create({ data: { appId: a.app.id, propsCustom: { seats: 2.5 } } });
    const ev = ok<{ type: { id: number } }>(
      await a.api.postJson(`/api/users/${u.id}/events`, { event: "Paid" }),
    );

    const props = ok<CatalogProp[]>(await a.api.get(`/api/apps/${a.app.id}/props`));
    const by = new Map(props.map((p) => [p.name, p]));
    expect(by.get("$email")).toMatchObject({ kind: "system", type: "string", read_only: false });
    expect(by.get("$sessions")).toMatchObject({ kind: "system", type: "integer" });
    expect(by.get("$last_seen")).toMatchObject({ type: "datetime" });
    expect(by.get("$user_id")).toMatchObject({ read_only: true });
    expect(by.get("plan")).toMatchObject({ kind: "custom", type: "string", users: 1 });
    expect(by.get("seats")).toMatchObject({ type: "float", users: 2 });
    expect(by.get("ratio")?.type).toBe("float");
    expect(by.get("trial")?.type).toBe("boolean");
    expect(by.get("signup")?.type).toBe("datetime");
    expect(by.get("interests")?.type).toBe("list");
    expect(by.get(`$event_${ev.type.id}_count`)).toMatchObject({
      kind: "event",
      type: "integer",
      label: "Paid: count",
      read_only: true,
    });
    expect(by.get(`$event_${ev.type.id}_last`)?.type).toBe("datetime");
  });

  it("is refused for another app", async ({ server: s, app: a }) => {
    const other = await makeApp(s.db);
    errorOf(await client(s, other.token).get(`/api/apps/${a.app.id}/props`), 403, "PermissionDenied");
  });
});

describe("GET /apps/{id}/users extensions (props_extra, tags)", () => {
  it("adds picked custom and event props and the tags to each lead; the default shape is unchanged", async ({
    server: s,
    app: a,
  }) => {
    const run = `x${Date.now()}`;
    const u = await s.db.user.create({ data: { appId: a.app.id, name: run, propsCustom: { plan: "gold" } } });
    ok(await a.api.postJson(`/api/users/${u.id}/tags`, { tag: "vip" }));
    const ev = ok<{ type: { id: number } }>(
      await a.api.postJson(`/api/users/${u.id}/events`, { event: "Seen" }),
    );
    const filters = {
      type: "and",
      filters: [{ property_name: "$name", type: "str_eq", value: { value: run } }],
    };
    type Lead = { id: number; props: Record<string, unknown>; tags?: string[] };
    const plain = ok<{ users: Lead[] }>(await a.api.get(`/api/apps/${a.app.id}/users`, { filters }));
    expect(Object.keys(plain.users[0]!).sort()).toEqual(["id", "presence", "props"]);
    expect(plain.users[0]!.props.plan).toBeUndefined();

    const count = `$event_${ev.type.id}_count`;
    const rich = ok<{ users: Lead[] }>(
      await a.api.get(`/api/apps/${a.app.id}/users`, {
        filters,
        props_extra: ["plan", count, "missing"],
        tags: true,
      }),
    );
    expect(rich.users[0]!.props).toMatchObject({ $name: run, plan: "gold", [count]: 1 });
    expect("missing" in rich.users[0]!.props).toBe(false);
    expect(rich.users[0]!.tags).toEqual(["vip"]);
    const many = Array.from({ length: 21 }, (_, i) => `p${i}`);
    errorOf(await a.api.get(`/api/apps/${a.app.id}/users`, { props_extra: many }), 400, "ValidationError");
  });
});
