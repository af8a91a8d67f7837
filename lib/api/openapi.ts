import { z } from "zod";
import { scopesOf } from "./access";
import type { Endpoint, VersionSpec } from "./endpoint";
import { versionSpecOf } from "./endpoint-versions";
import { ERROR_STATUS } from "./errors";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "./idempotency";
import { RELEASED } from "./versions";

type Json = Record<string, unknown>;

function jsonSchema(s: z.ZodType): Json {
  const out = z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Json;
  delete out.$schema;
  return out;
}

/**
 * A response schema as the serializers produce it. Shared definitions (those with an `id`, e.g. JsonValue) move to
 * the document's components, where their references then point: `#/$defs/…` means nothing inside an operation.
 */
function outputSchema(s: z.ZodType, components: Record<string, Json>): Json {
  const out = z.toJSONSchema(s, { io: "output", unrepresentable: "any" }) as Json;
  delete out.$schema;
  const defs = (out.$defs ?? {}) as Record<string, Json>;
  delete out.$defs;
  const relink = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(relink);
    if (typeof v !== "object" || v === null) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === "$ref" && typeof x === "string" ? x.replace("#/$defs/", "#/components/schemas/") : relink(x),
      ]),
    );
  };
  for (const [name, def] of Object.entries(defs)) components[name] = relink(def) as Json;
  return relink(out) as Json;
}

function envelope(v: VersionSpec<z.ZodType>, components: Record<string, Json>): Json {
  if ("contentType" in v.response) {
    const type = v.response.contentType;
    // Not the envelope: a file, or a JSON document of its own (this one).
    const schema = type === "application/json" ? { type: "object" } : { type: "string", format: "binary" };
    return { [type]: { schema } };
  }
  const meta = v.meta ? outputSchema(v.meta, components) : { type: "object" };
  const metaProps = (meta.properties ?? {}) as Record<string, Json>;
  const schema: Json = {
    type: "object",
    required: ["data", "meta"],
    properties: {
      data: outputSchema(v.response, components),
      meta: {
        type: "object",
        required: ["status", ...((meta.required ?? []) as string[])],
        properties: { status: { type: "integer", const: 200 }, ...metaProps },
      },
    },
  };
  return { "application/json": { schema } };
}

const errorEnvelope: Json = {
  type: "object",
  required: ["data", "meta"],
  properties: {
    data: { type: "object", maxProperties: 0 },
    meta: {
      type: "object",
      required: ["status", "error", "error_message", "request_id"],
      properties: {
        status: { type: "integer" },
        error: { type: "string", enum: Object.keys(ERROR_STATUS) },
        error_message: { type: "string" },
        error_fields: { type: "object", additionalProperties: { type: "string" } },
        request_id: { type: "string" },
      },
    },
  },
};

const IDEMPOTENCY_PARAMETER: Json = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description:
    "Makes a retry safe: a repeat with the same key (per token or operator session, for 24 hours) is not run " +
    `again but answered with the first answer, marked \`${REPLAYED_HEADER}: true\`. A key reused for another ` +
    "request, or repeated while the first runs on past 5 s, is a ValidationError.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
};

function operation(
  e: Endpoint,
  v: VersionSpec<z.ZodType>,
  major: number,
  components: Record<string, Json>,
): Json {
  const schema = jsonSchema(v.params);
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const pathNames = [...e.spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const parameters: Json[] = pathNames.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: props[name] ?? { type: "string" },
  }));
  const rest = Object.entries(props).filter(([k]) => !pathNames.includes(k));
  const op: Json = {
    operationId:
      `${e.spec.method.toLowerCase()}_${e.spec.path.replace(/[^a-zA-Z0-9]+/g, "_")}_v${major}`.replace(
        /_+/g,
        "_",
      ),
    summary: e.spec.summary,
    tags: e.spec.tags ?? [],
    ...(e.spec.auth === "none" || e.spec.auth === "visitor" || e.spec.auth === "secret"
      ? {}
      : { description: scopeNote(e, v) }),
    responses: {
      "200": { description: "Success", content: envelope(v, components) },
      default: {
        description: "Error (the status equals meta.status)",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    },
  };
  if (e.spec.method === "GET") {
    for (const [name, s] of rest)
      parameters.push({ name, in: "query", required: required.has(name), schema: s });
  } else if (rest.length) {
    const body: Json = { type: "object", properties: Object.fromEntries(rest) };
    const req = rest.map(([k]) => k).filter((k) => required.has(k));
    if (req.length) body.required = req;
    const hasFile = rest.some(([, s]) => s.format === "binary");
    op.requestBody = {
      required: req.length > 0,
      content: {
        "application/x-www-form-urlencoded": { schema: body },
        "application/json": { schema: body },
        ...(hasFile ? { "multipart/form-data": { schema: body } } : {}),
      },
    };
  }
  if (e.spec.auth === "visitor") {
    op.security = [{ accessToken: [] }];
    op.description = "A messenger visitor's access token (from /messenger/boot), and nothing else.";
  } else if (e.spec.auth === "secret") {
    op.description = "No token or session: the request carries its own credential, as the summary says.";
  } else if (e.spec.sessionOnly) {
    // No token scheme: an API token is refused whatever its scopes (lib/api/access.ts requireSession).
    op.security = [{ session: [] }, ...(major >= 3 ? [{ accessToken: [] }] : [])];
    op[SESSION_ONLY_EXTENSION] = true;
    op.description = sessionOnlyNote(major);
  } else if (e.spec.auth !== "none") {
    const scopes = [...scopesOf(e.spec, v)];
    // OpenAPI 3.1 lets any scheme list required roles: the token's scopes; operator sessions are not scoped.
    op.security = [
      { token: scopes },
      { tokenParam: scopes },
      { session: [] },
      ...(major >= 3 ? [{ accessToken: scopes }] : []),
    ];
    op["x-scopes"] = scopes;
    if (e.spec.asUserWith) op["x-scopes-as-user-with"] = e.spec.asUserWith;
  }
  if (e.spec.method === "POST" && e.spec.auth !== "none" && e.spec.auth !== "secret")
    parameters.push(IDEMPOTENCY_PARAMETER);
  if (parameters.length) op.parameters = parameters;
  return op;
}

/** The OpenAPI extension marking an operation only an operator's session may call. */
export const SESSION_ONLY_EXTENSION = "x-relay-session-only";

export function sessionOnlyNote(major: number): string {
  const v3 = major >= 3 ? " (in version 3, also the access token of an operator's login)" : "";
  return `Operator session only: the panel's session cookie${v3}. An API token is refused (PermissionDenied), whatever its scopes.`;
}

function scopeNote(e: Endpoint, v: VersionSpec<z.ZodType>): string {
  const scopes = scopesOf(e.spec, v);
  const needs = scopes.length ? `Token scopes: ${scopes.join(", ")}` : "Any token of the app";
  const asUser = e.spec.asUserWith
    ? `; with \`${e.spec.asUserWith}\` (acting as the visitor) also as-user`
    : "";
  return `${needs}${asUser}. Operator sessions are not scoped.`;
}

const ACCESS_TOKEN_SCHEME = {
  type: "http",
  scheme: "bearer",
  bearerFormat: "JWT",
  description:
    "Version 3: an access token from POST /auth/token (or a v3 login), EdDSA-signed, valid 5 minutes; its " +
    "`scope` claim holds the API key's scopes. Public keys: /.well-known/jwks.json.",
};

const V3_NOTE = `

**Version 3: access and refresh tokens.** Everything works as in version 2; in addition a call may authenticate with
a short-lived access token (\`Authorization: Bearer <access_token>\`). API keys keep working as they are.

1. Exchange the key: \`curl -X POST {base}/api/v3/auth/token -H "Authorization: Token rly_…" -d grant_type=api_key\`
   answers \`{"data": {"access_token": "eyJ…", "refresh_token": "rlr_…", "token_type": "Bearer", "expires_in": 300}}\`.
2. Call: \`curl {base}/api/v3/ping -H "Authorization: Bearer eyJ…"\`.
3. Before it expires, refresh: \`curl -X POST {base}/api/v3/auth/token -d grant_type=refresh_token -d refresh_token=rlr_…\`
   answers a new pair; the old refresh token is used up (using it again revokes the whole chain: log in or exchange
   the key again).`;

/** The OpenAPI 3.1 document of one major version, generated from the endpoints' zod schemas. */
export function openApiDocument(endpoints: Endpoint[], major: 1 | 2 | 3): Json {
  const paths: Record<string, Json> = {};
  const shared: Record<string, Json> = {};
  for (const e of endpoints) {
    const v = versionSpecOf(e.spec, major);
    if (!v) continue;
    (paths[e.spec.path] ??= {})[e.spec.method.toLowerCase()] = operation(e, v, major, shared);
  }
  const full = [...RELEASED].reverse().find((r) => r.startsWith(`${major}.`)) ?? `${major}.0.0`;
  return {
    openapi: "3.1.0",
    info: {
      title: "Relay customer-messaging API",
      version: full,
      description:
        "Every response is `{data, meta}`; `meta.status` equals the HTTP status. Parameters may be sent in the " +
        "query string, a form body, multipart or JSON. Arrays and objects are JSON-encoded strings in query and form." +
        (major >= 3 ? V3_NOTE : ""),
    },
    servers: [{ url: major === 2 ? "/api" : `/api/v${major}` }],
    paths,
    components: {
      schemas: { ...shared, Error: errorEnvelope },
      securitySchemes: {
        token: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`Token <token>` or `Bearer <token>`",
        },
        tokenParam: { type: "apiKey", in: "query", name: "auth_token" },
        session: { type: "apiKey", in: "cookie", name: "relay_session" },
        ...(major >= 3 ? { accessToken: ACCESS_TOKEN_SCHEME } : {}),
      },
    },
  };
}
