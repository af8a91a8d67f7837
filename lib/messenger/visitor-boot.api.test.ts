import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, newDeviceId, publicKeyOf, warmUpVisitorApi } from "./testing";
import type { Boot } from "./visitor-schemas";
import type { TokenPairData } from "../sessions/schemas";

it.beforeAll(warmUpVisitorApi);

describe("messenger boot", () => {
  it("makes an anonymous visitor on a device's first boot, and the same one after", async ({
    server,
    app,
  }) => {
    const first = await bootTestVisitor(server, app);
    expect(first.boot.visitor).toMatchObject({ user_id: null, name: null, email: null, anonymous: true });
    expect(first.boot.messenger).toMatchObject({ app: Number(app.app.id), position: "right" });
    expect(first.boot.unread).toBe(0);
    expect(first.boot.messenger).not.toHaveProperty("allowed_origins");
    const again = await bootTestVisitor(server, app, { deviceId: first.deviceId });
    expect(again.boot.visitor.id).toBe(first.boot.visitor.id);
    const other = await bootTestVisitor(server, app);
    expect(other.boot.visitor.id).not.toBe(first.boot.visitor.id);
    // Not a lead: anonymous visitors stay out of Leads.
    const user = await server.db.user.findUniqueOrThrow({ where: { id: BigInt(first.boot.visitor.id) } });
    expect(user.isLead).toBe(false);
    expect(user.appId).toBe(app.app.id);
  });

  it("refuses unknown keys, bad device ids and origins the app does not allow", async ({ server, app }) => {
    const boot = (json: Record<string, unknown>) =>
      server.call("/api/v2/messenger/boot", { method: "POST", json });
    const key = await publicKeyOf(app);
    errorOf(await boot({ key: "mk_nope", device_id: newDeviceId() }), 401, "AuthenticationFailed");
    errorOf(await boot({ key, device_id: "short" }), 400, "ValidationError");
    errorOf(await boot({ key }), 400, "ValidationError");
    ok(
      await app.api.postJson(`/api/v2/apps/${app.app.id}/messenger`, {
        allowed_origins: ["http://127.0.0.1:1"],
      }),
    );
    errorOf(
      await boot({ key, device_id: newDeviceId(), origin: "http://127.0.0.1:2" }),
      403,
      "PermissionDenied",
    );
    ok(await boot({ key, device_id: newDeviceId(), origin: "http://127.0.0.1:1" }));
    ok(await app.api.postJson(`/api/v2/apps/${app.app.id}/messenger`, { allowed_origins: [] }));
  });

  it("gives a token that serves the visitor endpoints and no other", async ({ server, app }) => {
    const v = await bootTestVisitor(server, app);
    const me = ok<{ visitor: Boot["visitor"]; unread: number }>(await v.api.get("/api/v2/messenger/me"));
    expect(me.visitor.id).toBe(v.boot.visitor.id);
    // Not an operator's or an API key's credential, in any version.
    for (const path of [
      `/api/v2/apps/${app.app.id}/conversations`,
      `/api/v3/apps/${app.app.id}/conversations`,
      `/api/v2/users/${v.boot.visitor.id}`,
      "/api/v1/ping",
    ]) {
      errorOf(await v.api.get(path), 401, "AuthenticationFailed");
    }
    // And the visitor endpoints take nothing else: an API key, nor no credential.
    errorOf(await app.api.get("/api/v2/messenger/me"), 401, "AuthenticationFailed");
    errorOf(await server.call("/api/v2/messenger/me"), 401, "AuthenticationFailed");
  });

  it("refreshes once per refresh token; a reused one ends the family", async ({ server, app }) => {
    const v = await bootTestVisitor(server, app);
    const refresh = (t: string) =>
      server.call("/api/v2/messenger/refresh", { method: "POST", json: { refresh_token: t } });
    const next = ok<TokenPairData>(await refresh(v.boot.refresh_token));
    expect(next.refresh_token).not.toBe(v.boot.refresh_token);
    errorOf(await refresh(v.boot.refresh_token), 401, "AuthenticationFailed");
    errorOf(await refresh(next.refresh_token), 401, "AuthenticationFailed");
  });
});
