import type { z } from "zod";
import type { Scope } from "../auth/scopes";
import { denied } from "./errors";
import { appIdFields } from "../contract/zod";

/**
 * `auth`: `required` (default), a token or an operator session; `optional`; `none`; `visitor`, a messenger
 * visitor's access token and nothing else (in every version); `secret`, a credential the handler checks itself (a
 * shared secret in Authorization, a signed link): no token or session cookie is read, so neither can refuse it. An endpoint that takes a token names the scopes it
 * needs in every version (`[]`: any token of the app); operator sessions are not scoped. `sessionOnly`: an
 * operator's own business (their profile, API keys, notifications): an API token is refused whatever its scopes,
 * and the reference and the OpenAPI document say so, read from this one mark.
 */
export type Access =
  | { auth: "none" | "visitor" | "secret"; scopes?: undefined; sessionOnly?: undefined }
  | { auth?: "required" | "optional"; scopes: readonly Scope[]; sessionOnly?: undefined }
  // Scopes are a token's: an endpoint no token may call needs none.
  | { auth?: "required"; scopes: readonly []; sessionOnly: true };

export const SESSION_ONLY_MESSAGE = "Only an operator's session may call this endpoint, not an API token.";

/** Refuses an API token where the endpoint is an operator's own (an operator's v3 access token is a session's). */
export function requireSession(spec: { sessionOnly?: true }, actorKind: string): void {
  if (spec.sessionOnly && actorKind === "token") throw denied(SESSION_ONLY_MESSAGE);
}

/** The scopes a token needs for one version of an endpoint: the version's own where v1 differs, else the endpoint's. */
export function scopesOf(
  spec: { scopes?: readonly Scope[] },
  version: { scopes?: readonly Scope[] },
): readonly Scope[] {
  return version.scopes ?? spec.scopes ?? [];
}

export function requireScopes(held: readonly Scope[], needed: readonly Scope[]): void {
  const missing = needed.filter((s) => !held.includes(s));
  if (missing.length) throw denied(`This token lacks the scope(s): ${missing.join(", ")}.`);
}

/** A present parameter acts as the visitor unless it is `false` (v1's from_user is a boolean). */
export function actsAsUser(input: unknown, param: string | undefined): boolean {
  if (param === undefined || typeof input !== "object" || input === null) return false;
  const v = (input as Record<string, unknown>)[param];
  return v !== undefined && v !== false;
}

const appIdsOf = new WeakMap<z.ZodType, ReadonlySet<string>>();

/** The parameters of a version's schema that are app IDs: the only ones where `$self_app` stands. */
export function appIdParams(schema: z.ZodType): ReadonlySet<string> {
  let found = appIdsOf.get(schema);
  if (!found) appIdsOf.set(schema, (found = new Set(appIdFields(schema))));
  return found;
}
