import type { Db } from "../db/client";
import type { Actor } from "../auth/context";
import { verifyApiToken } from "../auth/tokens";
import { csrfMatches, CSRF_HEADER, parseCookies, SESSION_COOKIE, verifySession } from "../auth/sessions";
import { ApiError, unauthenticated } from "./errors";
import { single, type RawParams } from "./params";

export interface Authenticated {
  actor: Actor;
  /** A stable key for rate limiting. */
  limitKey: string;
}

export function bearerToken(req: Request, params: RawParams): string | undefined {
  const header = req.headers.get("authorization");
  if (header) {
    const m = /^(Token|Bearer)\s+(\S+)\s*$/i.exec(header);
    if (!m?.[2])
      throw unauthenticated("The Authorization header must be `Token <token>` or `Bearer <token>`.");
    return m[2];
  }
  const p = single(params.auth_token);
  return typeof p === "string" && p !== "" ? p : undefined;
}

export async function authenticate(
  db: Db,
  req: Request,
  params: RawParams,
  opts: { required: boolean; csrf: boolean },
): Promise<Authenticated> {
  const token = bearerToken(req, params);
  if (token !== undefined) {
    const t = await verifyApiToken(db, token);
    if (!t) throw unauthenticated();
    return { actor: { kind: "token", ...t }, limitKey: `t:${t.tokenId}` };
  }
  const cookie = parseCookies(req.headers.get("cookie"))[SESSION_COOKIE];
  if (cookie) {
    const s = await verifySession(db, cookie);
    if (s) {
      // Cookies ride along on cross-site requests; writes must prove they come from our own pages.
      if (opts.csrf && !csrfMatches(s.csrfToken, req.headers.get(CSRF_HEADER))) {
        throw new ApiError("PermissionDenied", "Missing or wrong CSRF token (send the X-CSRF-Token header).");
      }
      const apps = await db.appAdmin.findMany({ where: { adminId: s.adminId }, select: { appId: true } });
      return {
        actor: {
          kind: "admin",
          adminId: s.adminId,
          sessionId: s.sessionId,
          appIds: apps.map((a) => a.appId),
        },
        limitKey: `s:${s.sessionId}`,
      };
    }
  }
  if (opts.required) throw unauthenticated();
  return {
    actor: { kind: "anonymous" },
    limitKey: `ip:${req.headers.get("x-relay-client-ip") ?? "unknown"}`,
  };
}
