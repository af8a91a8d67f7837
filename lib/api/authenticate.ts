import type { Actor } from "../auth/context";
import type { Runtime } from "../server/runtime";
import { verifyApiToken } from "../auth/tokens";
import { csrfMatches, CSRF_HEADER, parseCookies, SESSION_COOKIE, verifySession } from "../auth/sessions";
import { CLIENT_IP_HEADER } from "./endpoint";
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

/** Refuses an unknown token; once its address has sent too many of them, with 429 rather than 401. */
export async function refuseToken(rt: Pick<Runtime, "badTokens">, address: string): Promise<ApiError> {
  const verdict = await rt.badTokens.take(`badtoken:${address}`);
  if (verdict.ok) return unauthenticated();
  return new ApiError("Throttled", "Too many requests with unknown tokens: slow down.", undefined, {
    "Retry-After": String(verdict.retryAfter),
  });
}

export async function authenticate(
  rt: Pick<Runtime, "db" | "badTokens">,
  req: Request,
  params: RawParams,
  opts: { required: boolean; csrf: boolean },
): Promise<Authenticated> {
  const { db } = rt;
  const address = req.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  const token = bearerToken(req, params);
  if (token !== undefined) {
    const t = await verifyApiToken(db, token);
    if (!t) throw await refuseToken(rt, address);
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
    limitKey: `ip:${address}`,
  };
}
