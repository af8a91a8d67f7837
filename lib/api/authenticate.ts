import type { Actor } from "../auth/context";
import type { Runtime } from "../server/runtime";
import { identify, VISITOR_ONLY } from "../auth/actor";
import { csrfMatches, CSRF_HEADER } from "../auth/sessions";
import { CLIENT_IP_HEADER } from "./headers";
import { ApiError, unauthenticated } from "./errors";
import { single, type RawParams } from "./params";
import type { ApiRequest } from "./api-request";

export interface Authenticated {
  actor: Actor;
  /** A stable key for rate limiting. */
  limitKey: string;
}

function bearerToken(req: ApiRequest, params: RawParams): string | undefined {
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
  rt: Pick<Runtime, "db" | "badTokens">,
  req: ApiRequest,
  params: RawParams,
  opts: { required: boolean; csrf: boolean; jwt?: boolean; visitor?: boolean },
): Promise<Authenticated> {
  const address = req.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  const token = bearerToken(req, params);
  if (opts.visitor) {
    // Only a visitor's access token: never a cookie (the messenger runs on other sites) nor another kind of token.
    const who =
      token === undefined ? null : await identify(rt, { token, cookies: undefined, address, visitor: true });
    if (!who || !("actor" in who) || who.actor.kind !== "visitor") {
      throw unauthenticated(VISITOR_ONLY);
    }
    return { actor: who.actor, limitKey: `v:${who.actor.userId}` };
  }
  const cookies = req.headers.get("cookie") ?? undefined;
  const who = await identify(rt, { token, cookies, address, jwt: opts.jwt });
  if (who && "wrongKind" in who) throw unauthenticated(who.wrongKind);
  if (token !== undefined && !who) throw unauthenticated();
  if (who?.actor.kind === "admin") {
    // Cookies ride along on cross-site requests; writes must prove they come from our own pages.
    const csrf = "csrfToken" in who ? who.csrfToken : undefined;
    if (csrf !== undefined && opts.csrf && !csrfMatches(csrf, req.headers.get(CSRF_HEADER))) {
      throw new ApiError("PermissionDenied", "Missing or wrong CSRF token (send the X-CSRF-Token header).");
    }
    return { actor: who.actor, limitKey: `s:${who.actor.sessionId}` };
  }
  if (who?.actor.kind === "token") return { actor: who.actor, limitKey: `t:${who.actor.apiKeyId}` };
  if (who?.actor.kind === "visitor") throw unauthenticated();
  if (opts.required) throw unauthenticated();
  return anonymous(req);
}

/** No one in particular, rate-limited by client address. */
export function anonymous(req: ApiRequest): Authenticated {
  return { actor: { kind: "anonymous" }, limitKey: `ip:${req.headers.get(CLIENT_IP_HEADER) ?? "unknown"}` };
}
