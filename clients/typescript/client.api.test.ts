import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, expectTypeOf } from "vitest";
import { it } from "../../lib/testing/fixture";
import { createRelayClient } from "./index";

describe("the typed TypeScript client (clients/typescript)", () => {
  it("calls the server with typed requests and reads typed answers", async ({ server: s, app: a }) => {
    const relay = createRelayClient({ baseUrl: s.url, token: a.token });
    const userId = `client-${Date.now()}`;
    const tracked = await relay.POST("/users/{id}/events", {
      params: { path: { id: userId } },
      body: { by_user_id: true, app: Number(a.app.id), event: "Typed client", params: { plan: "pro" } },
    });
    expect(tracked.response.status).toBe(200);
    expectTypeOf(tracked.data!.data.type.name).toEqualTypeOf<string>();
    expect(tracked.data?.data.type.name).toBe("Typed client");

    const user = await relay.GET("/users/{id}", {
      params: { path: { id: userId }, query: { by_user_id: true } },
    });
    expect(user.data?.data.user_id).toBe(userId);
    const list = await relay.GET("/apps/{id}/conversations", { params: { path: { id: String(a.app.id) } } });
    expect(list.response.status).toBe(200);
    expect(Array.isArray(list.data?.data)).toBe(true);

    // An error answer is not `data`: the envelope's error is in `error`.
    const missing = await relay.GET("/users/{id}", { params: { path: { id: "999999999999" } } });
    expect(missing.response.status).toBe(400);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ meta: { error: "LookupError" } });
  });

  it("packs: the package holds its entry and its generated types", () => {
    const dir = path.join(import.meta.dirname);
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: dir,
    }).toString();
    const [pack] = JSON.parse(out) as { name: string; files: { path: string }[] }[];
    expect(pack?.name).toBe("@relay/api-client");
    expect(pack?.files.map((f) => f.path).sort()).toEqual(["index.ts", "package.json", "schema.d.ts"]);
  });
});
