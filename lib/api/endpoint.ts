import crypto from "node:crypto";
import type { z } from "zod";
import type { Scope } from "../auth/scopes";
import type { Ctx } from "../auth/context";
import { getRuntime } from "../server/runtime";
import { noteOf } from "../server/request-note";
import { runOnItsDb } from "./read-replica";
import { actsAsUser, appIdParams, requireScopes, requireSession, scopesOf, type Access } from "./access";
import { anonymous, authenticate } from "./authenticate";
import { envelope, errorEnvelope } from "./envelope";
import { AnswerHeaders, toResponse, type Served } from "./answer";
import { claimIdempotency, type Claim } from "./idempotency";
import { isDomainError } from "../domain/errors";
import { ApiError, denied, isApiError, isDatabaseUnreachable, toApiError, validation } from "./errors";
import { readParams, single, DEFAULT_BODY_LIMIT, type RawParams } from "./params";
import { resolveVersion, type ApiVersion } from "./versions";
import { VERSION_HEADER } from "./headers";
import { applyVersion, pickVersion } from "./endpoint-versions";
import { findBadText, zodFields } from "../contract/zod";
import { applyCors, type CorsPolicy, type CorsSeen } from "./cors";
import type { ApiRequest } from "./api-request";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Result {
  data: unknown;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Raw Set-Cookie values (login and logout). */
  cookies?: string[];
}

/** A 200 that is not the envelope but a file (CSV export, attachments): only its content type is declared. */
export interface FileResponse {
  contentType: string;
}

export interface VersionSpec<S extends z.ZodType> {
  params: S;
  /**
   * The schema of a 200's `data` (lib/<domain>/schemas.ts, browser-safe, the panel's types come from it), or the
   * file a download answers with. Required: the OpenAPI document and the contract test read it.
   */
  response: z.ZodType | FileResponse;
  /** The schema of what `meta` holds besides `status` (a page's position, a total), where there is any. */
  meta?: z.ZodType;
  /** Only where the spec's v1 names other scopes than the endpoint's: what a token needs in this version. */
  scopes?: readonly Scope[];
  handler: (ctx: Ctx, input: z.output<S>, req: ApiRequest) => Promise<Result | Response>;
}

interface EndpointBase<S1 extends z.ZodType, S2 extends z.ZodType, S3 extends z.ZodType> {
  method: Method;
  /** The path under /api, in OpenAPI form: `/conversations/{id}/reply`. */
  path: string;
  summary: string;
  tags?: string[];
  /** Accepts `id_as_string` (the spec's IAS mark). Default true. */
  ias?: boolean;
  bodyLimit?: number;
  /** The handler reads the body itself (streamed uploads): only the query string is parsed, `req` stays unread. */
  rawBody?: boolean;
  /**
   * A parameter that, when given (and not false), makes the request act as the visitor: a token then also needs
   * `as-user`, in every version.
   */
  asUserWith?: string;
  /**
   * A heavy read (leads lists and counts, exports, reports, search): served by DATABASE_REPLICA_URL's replica
   * when the caller's writes are there (lib/api/read-replica.ts).
   */
  reads?: "replica";
  /** Answers readable from other origins under this policy (lib/api/cors.ts); none: no CORS headers at all. */
  cors?: CorsPolicy;
  v1?: VersionSpec<S1>;
  v2?: VersionSpec<S2>;
  /** Only where v3 differs (token-generating methods, v3-only paths): v3 is otherwise served by the v2 form. */
  v3?: VersionSpec<S3>;
}

export type EndpointSpec<
  S1 extends z.ZodType,
  S2 extends z.ZodType,
  S3 extends z.ZodType = z.ZodType,
> = EndpointBase<S1, S2, S3> & Access;

/** An endpoint that answers alike in v1 and v2: one spec for both (`...bothVersions({...})`). */
export function bothVersions<S extends z.ZodType>(spec: VersionSpec<S>) {
  return { v1: spec, v2: spec };
}

export interface Endpoint {
  spec: EndpointSpec<z.ZodType, z.ZodType>;
  handle(req: ApiRequest, route: RouteContext): Promise<Response>;
  /** handle's answer before it is a Response, for the server that writes envelopes itself (lib/api/direct.ts). */
  serve(req: ApiRequest, route: RouteContext): Promise<Served>;
}

export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

/** Parameters every endpoint understands, removed before the endpoint's own schema sees the rest. */
const COMMON = ["auth_token", "version", "id_as_string"] as const;
/** On every answer: the real-time position as of the request's reads (a subscription resumes from it). */
export const EVENT_POSITION_HEADER = "X-Event-Position";

function asBool(v: unknown): boolean {
  const s = single(v);
  if (s === undefined) return false;
  if (typeof s === "boolean") return s;
  if (typeof s === "number") return s !== 0;
  return typeof s === "string" && !["false", "0", ""].includes(s.trim().toLowerCase());
}

/** Request IDs: a random prefix per process and a counter, unique without drawing random bytes per request. */
const ID_PREFIX = crypto.randomBytes(5).toString("hex");
let idCounter = 0;
function nextRequestId(): string {
  idCounter = (idCounter + 1) % 0x1000000;
  return ID_PREFIX + idCounter.toString(16).padStart(6, "0");
}

export function endpoint<
  S1 extends z.ZodType = z.ZodType,
  S2 extends z.ZodType = z.ZodType,
  S3 extends z.ZodType = z.ZodType,
>(spec: EndpointSpec<S1, S2, S3>): Endpoint {
  const serve = async (req: ApiRequest, route: RouteContext): Promise<Served> => {
    let once: Claim | undefined;
    const seen: CorsSeen = { actor: undefined, input: {} };
    const res = await answer(req, route, (c) => (once = c), seen);
    const settled = once ? await once.settle(res) : res;
    return spec.cors ? applyCors(settled, req, spec.cors, seen) : settled;
  };
  const handle = async (req: ApiRequest, route: RouteContext) => toResponse(await serve(req, route));
  const answer = async (
    req: ApiRequest,
    route: RouteContext,
    claimed: (c: Claim) => void,
    seen: CorsSeen,
  ): Promise<Served> => {
    const requestId = nextRequestId();
    const headers = new AnswerHeaders();
    headers.set("X-Request-Id", requestId);
    let version: ApiVersion | undefined;
    try {
      const rt = getRuntime();
      const url = new URL(req.url);
      const prefixed = req.headers.get(VERSION_HEADER);
      // Resolved from the path or query first, so that even a body that fails to parse is answered with it.
      version = applyVersion(headers, prefixed ?? url.searchParams.get("version") ?? undefined);
      const raw: RawParams = await readParams(req, url, spec.bodyLimit ?? DEFAULT_BODY_LIMIT, spec.rawBody);
      seen.input = raw;
      const fromBody = single(raw.version);
      if (prefixed === null && (typeof fromBody === "string" || typeof fromBody === "number")) {
        version = applyVersion(headers, String(fromBody));
      }
      const vspec = pickVersion<VersionSpec<z.ZodType>>(spec, version);
      if (!vspec) throw new ApiError("NotFound", `This endpoint does not exist in version ${version.major}.`);

      const auth =
        spec.auth === "secret"
          ? anonymous(req)
          : await authenticate(rt, req, raw, {
              required: (spec.auth ?? "required") === "required",
              csrf: req.method !== "GET" && req.method !== "HEAD",
              jwt: version.major >= 3,
              visitor: spec.auth === "visitor",
            });
      const verdict = await rt.limiter.take(auth.limitKey);
      if (!verdict.ok) {
        throw new ApiError("Throttled", "Too many requests: slow down.", undefined, {
          "Retry-After": String(verdict.retryAfter),
        });
      }
      const actor = auth.actor;
      seen.actor = actor;
      const note = noteOf(req);
      if (note) note.actor = actor.kind;
      requireSession(spec, actor.kind);
      if (actor.kind === "token") requireScopes(actor.scopes, scopesOf(spec, vspec));

      const idAsString = (spec.ias ?? true) && asBool(raw.id_as_string);
      const pathParams = (await route?.params) ?? {};
      const input: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(raw)) if (!(COMMON as readonly string[]).includes(k)) input[k] = v;
      for (const [k, v] of Object.entries(pathParams)) if (v !== undefined) input[k] = v;
      const selfApp =
        actor.kind === "token"
          ? actor.appId
          : actor.kind === "admin"
            ? defaultAdminApp(actor, input)
            : undefined;
      if (note && selfApp !== undefined) note.appId = selfApp;
      // Only app-ID parameters: elsewhere `$self_app` stays text, which an ID parameter refuses.
      for (const k of appIdParams(vspec.params)) {
        if (single(input[k]) !== "$self_app") continue;
        if (selfApp === undefined) throw denied("`$self_app` needs an app's token or an operator session.");
        input[k] = String(selfApp);
      }

      const bad = findBadText(input);
      if (bad !== undefined) throw validation({ [bad.path]: bad.problem });
      const parsed = vspec.params.safeParse(input, { reportInput: true });
      if (!parsed.success) throw validation(zodFields(parsed.error));
      if (actor.kind === "token" && actsAsUser(parsed.data, spec.asUserWith)) {
        requireScopes(actor.scopes, ["as-user"]);
      }
      const once = await claimIdempotency(rt.db, req, actor, input, requestId);
      if (once instanceof Response) return once;
      if (once) claimed(once);

      // Read before the handler's own reads: events up to it are in what this answer shows (lib/client/read-position.ts).
      const position = rt.eventPosition?.();
      if (position !== undefined) headers.set(EVENT_POSITION_HEADER, String(position));
      const ctx: Ctx = {
        db: rt.db,
        actor,
        appId: selfApp,
        requestId,
      };
      const result = await runOnItsDb(rt, ctx, req.method, spec.reads, (c) =>
        vspec.handler(c, parsed.data, req),
      );
      if (result instanceof Response) {
        for (const [k, v] of headers.entries()) if (!result.headers.has(k)) result.headers.set(k, v);
        return result;
      }
      for (const [k, v] of Object.entries(result.headers ?? {})) headers.set(k, v);
      for (const c of result.cookies ?? []) headers.append("Set-Cookie", c);
      return envelope({ data: result.data, meta: { status: 200, ...result.meta } }, 200, headers, idAsString);
    } catch (err) {
      if (!headers.has("X-API-Version")) headers.set("X-API-Version", resolveVersion(undefined).full);
      if (!isApiError(err) && !isDomainError(err)) {
        // An outage is not a fault of ours: one short line (toApiError answers 503) rather than a stack per request.
        const where = `[${requestId}] ${req.method} ${new URL(req.url).pathname}`;
        if (isDatabaseUnreachable(err)) console.error(`${where}: database unreachable`);
        else console.error(`${where}:`, err);
      }
      return errorEnvelope(toApiError(err, requestId), requestId, headers);
    }
  };
  return { spec: spec, handle, serve };
}

/** An operator acts on the app named by `app` when a member of it, else on their only (or first) app. */
function defaultAdminApp(
  actor: { kind: "admin"; appIds: bigint[] },
  input: Record<string, unknown>,
): bigint | undefined {
  const want = single(input.app);
  if (typeof want === "string" && /^\d{1,19}$/.test(want)) {
    const id = BigInt(want);
    if (actor.appIds.includes(id)) return id;
  }
  return actor.appIds[0];
}
