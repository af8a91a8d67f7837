import type { Db } from "../db/client";
import { denied } from "../domain/errors";
import type { Scope } from "./scopes";

/**
 * `token`: a caller presenting a token, an API key's or an access token exchanged for one (`apiKeyId` is that key).
 * `viaJwt`: authenticated by an API v3 access token (lib/auth/jwt.ts) rather than the API key or session itself.
 * `visitor`: the messenger's visitor, one user of one app, by a visitor access token; accepted only by the endpoints
 * that say so (`auth: "visitor"`, lib/messenger) and by sockets, never where an API key or an operator is expected.
 */
export type Actor =
  | { kind: "token"; apiKeyId: bigint; appId: bigint; scopes: Scope[]; viaJwt?: true }
  | { kind: "admin"; adminId: bigint; sessionId: bigint; appIds: bigint[]; viaJwt?: true }
  | { kind: "visitor"; appId: bigint; userId: bigint; family: string; viaJwt: true }
  | { kind: "anonymous" };

/** What every service receives: who acts, and on which app by default (never the API version: the edge's). */
export interface Ctx {
  db: Db;
  actor: Actor;
  /** The app a request acts on when it names none: the token's app, or the operator's chosen app. */
  appId: bigint | undefined;
  requestId: string;
  /** The channel a change came through when not the actor's usual one: "email" for an answer by mail. */
  via?: "email";
  /** The bulk job a change is part of (lib/bulk): its assignments are told once per job, not per conversation. */
  bulkJob?: bigint;
}

export function canAccessApp(actor: Actor, appId: bigint): boolean {
  if (actor.kind === "token") return actor.appId === appId;
  if (actor.kind === "admin") return actor.appIds.includes(appId);
  if (actor.kind === "visitor") return actor.appId === appId;
  return false;
}

/** Objects of another app answer PermissionDenied, never their contents. */
export function assertApp(ctx: Ctx, appId: bigint): void {
  if (!canAccessApp(ctx.actor, appId)) throw denied();
}

export function requireAppId(ctx: Ctx): bigint {
  if (ctx.appId === undefined) throw denied("No app: pass `app`, or use a token of an app.");
  return ctx.appId;
}

/** The operator behind a request, when there is one (the panel); API keys act as the app's default admin. */
export function actingAdminId(ctx: Ctx): bigint | undefined {
  return ctx.actor.kind === "admin" ? ctx.actor.adminId : undefined;
}

/** The messenger visitor behind a request (endpoints with `auth: "visitor"` are only reached by one). */
export function visitorOf(ctx: Ctx): Extract<Actor, { kind: "visitor" }> {
  if (ctx.actor.kind !== "visitor") throw denied("Only a messenger visitor can do this.");
  return ctx.actor;
}
