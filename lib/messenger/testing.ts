import crypto from "node:crypto";
import type { TestServer } from "../testing/server";
import type { TestApp } from "../testing/fixture";
import { client, type Client } from "../testing/http";
import { errorOf, ok } from "../users/testing";
import type { MessengerSettings } from "./schemas";
import type { Boot, Visitor } from "./visitor-schemas";

/** A fresh device id, as the frame draws one. */
export const newDeviceId = () => crypto.randomBytes(18).toString("base64url");

/** The app's public messenger key (its settings are made on first read). */
export async function publicKeyOf(app: TestApp): Promise<string> {
  return ok<MessengerSettings>(await app.api.get(`/api/v2/apps/${app.app.id}/messenger`)).public_key;
}

export interface TestVisitor {
  boot: Boot;
  deviceId: string;
  /** The visitor's calls, with its access token. */
  api: Client;
}

/** A visitor of `app` booted on a new device (or on `deviceId`), as the frame does. */
export async function bootTestVisitor(
  s: TestServer,
  app: TestApp,
  opts: { deviceId?: string; origin?: string } = {},
): Promise<TestVisitor> {
  const deviceId = opts.deviceId ?? newDeviceId();
  const r = await s.call("/api/v2/messenger/boot", {
    method: "POST",
    json: {
      key: await publicKeyOf(app),
      device_id: deviceId,
      ...(opts.origin ? { origin: opts.origin } : {}),
    },
  });
  const boot = ok<Boot>(r);
  return { boot, deviceId, api: client(s, boot.access_token) };
}

/**
 * A visitor API file's `it.beforeAll`: the server's first answers are slow on a busy machine, so the first boot is
 * taken there, under the hook's longer timeout.
 */
export async function warmUpVisitorApi({ server, app }: { server: TestServer; app: TestApp }) {
  await bootTestVisitor(server, app);
}

/** The visitor that a messenger access token is for (`/messenger/me`). */
export async function visitorOf(s: TestServer, accessToken: string): Promise<Visitor> {
  return ok<{ visitor: Visitor }>(await client(s, accessToken).get("/api/v2/messenger/me")).visitor;
}

/** A visitor's token pair no longer works: the access token is refused, and so is the refresh token. */
export async function expectTokensRevoked(
  s: TestServer,
  tokens: { access_token: string; refresh_token: string },
): Promise<void> {
  errorOf(await client(s, tokens.access_token).get("/api/v2/messenger/me"), 401, "AuthenticationFailed");
  errorOf(
    await s.call("/api/v2/messenger/refresh", {
      method: "POST",
      json: { refresh_token: tokens.refresh_token },
    }),
    401,
    "AuthenticationFailed",
  );
}
