import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { CLIENT_IP_HEADER } from "../api/headers";
import { ApiError, unauthenticated } from "../api/errors";
import { p } from "../contract/zod";
import { describeAdmin, logIn } from "../auth/login";
import {
  createSession,
  deleteSession,
  parseCookies,
  SESSION_COOKIE,
  sessionCookieAttributes,
} from "../auth/sessions";
import { empty } from "../contract/schemas";
import { sessionSchema, tokenPairSchema } from "./schemas";
import { endTokenSession, issueTokenPair } from "../auth/refresh-tokens";
import type { ApiRequest } from "../api/api-request";

function sessionCookie(value: string, expires: Date | undefined, req: ApiRequest): string {
  const secure = new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  const a = sessionCookieAttributes(secure);
  const parts = [`${SESSION_COOKIE}=${value}`, `Path=${a.path}`, "HttpOnly", "SameSite=Lax"];
  parts.push(expires ? `Expires=${expires.toUTCString()}` : "Max-Age=0");
  if (a.secure) parts.push("Secure");
  return parts.join("; ");
}

const credentials = z.object({
  email: p.str({ min: 3, max: 320, trim: true }),
  password: p.str({ min: 1, max: 1000 }),
});

export const login = endpoint({
  method: "POST",
  path: "/auth/login",
  summary: "Operator login: sets the session cookie (v3: answers an access and refresh token pair instead)",
  tags: ["Panel"],
  auth: "none",
  ias: false,
  v3: {
    response: tokenPairSchema,
    params: credentials,
    handler: async (ctx, input, req) => {
      const address = req.headers.get(CLIENT_IP_HEADER) ?? "unknown";
      const admin = await logIn(ctx, { ...input, address });
      // A session without a cookie: the token family's anchor (rate limits, sockets and idempotency keys go by it).
      const s = await createSession(ctx.db, admin.id);
      const apps = await ctx.db.appAdmin.findMany({ where: { adminId: admin.id }, select: { appId: true } });
      const subject = {
        kind: "admin",
        adminId: admin.id,
        sessionId: s.sessionId,
        appIds: apps.map((a) => a.appId),
      } as const;
      return { data: await issueTokenPair(ctx.db, subject) };
    },
  },
  v2: {
    response: sessionSchema,
    params: credentials,
    handler: async (ctx, input, req) => {
      const address = req.headers.get(CLIENT_IP_HEADER) ?? "unknown";
      const admin = await logIn(ctx, { ...input, address });
      const s = await createSession(ctx.db, admin.id);
      const me = await describeAdmin(ctx.db, admin.id);
      return {
        data: { ...me, csrf_token: s.csrfToken },
        cookies: [sessionCookie(s.cookieValue, s.expires, req)],
      };
    },
  },
});

export const me = endpoint({
  method: "GET",
  path: "/auth/me",
  summary: "The logged-in operator, their apps and the CSRF token for writes",
  tags: ["Panel"],
  scopes: [],
  sessionOnly: true,
  ias: false,
  v2: {
    response: sessionSchema,
    params: z.object({}),
    handler: async (ctx, _input, req) => {
      if (ctx.actor.kind !== "admin")
        throw new ApiError("PermissionDenied", "Only operator sessions have a profile.");
      const cookie = parseCookies(req.headers.get("cookie"))[SESSION_COOKIE] ?? "";
      const session = await ctx.db.session.findFirst({
        where: { id: ctx.actor.sessionId },
        select: { csrfToken: true },
      });
      if (!session || !cookie) throw unauthenticated();
      return {
        data: { ...(await describeAdmin(ctx.db, ctx.actor.adminId)), csrf_token: session.csrfToken },
      };
    },
  },
});

export const logout = endpoint({
  method: "POST",
  path: "/auth/logout",
  summary: "Ends the operator session",
  tags: ["Panel"],
  scopes: [],
  auth: "optional",
  ias: false,
  v2: {
    response: empty,
    params: z.object({}),
    handler: async (ctx, _input, req) => {
      const cookie = parseCookies(req.headers.get("cookie"))[SESSION_COOKIE];
      if (ctx.actor.kind === "admin" && ctx.actor.viaJwt) {
        // v3: the operator's access token names the session its login made; the tokens of that login end (and
        // the login's sockets, as a cookie logout's do).
        await endTokenSession(ctx.db, ctx.actor.sessionId);
      } else if (cookie && ctx.actor.kind === "admin") {
        await deleteSession(ctx.db, cookie);
      }
      return { data: {}, cookies: [sessionCookie("", undefined, req)] };
    },
  },
});
