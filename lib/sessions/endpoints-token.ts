import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { ApiError, validation } from "../api/errors";
import { p } from "../contract/zod";
import { issueTokenPair, refreshTokenPair } from "../auth/refresh-tokens";
import { tokenPairSchema } from "./schemas";
import { publicKeys } from "../auth/signing-keys";

/**
 * API v3 only (they answer NotFound under v1 and v2). Listed apart from the v1/v2 catalog (lib/compose/catalog.ts
 * `v3Only`), whose suites call every endpoint in v1 and v2.
 */
export const postToken = endpoint({
  method: "POST",
  path: "/auth/token",
  summary: "API v3: exchange an API key, or a refresh token, for an access and refresh token pair",
  tags: ["Auth"],
  // The key is sent as any call sends it (Authorization: Token …); a refresh needs no other credential.
  auth: "optional",
  scopes: [],
  ias: false,
  v3: {
    response: tokenPairSchema,
    params: z.object({
      grant_type: p.oneOf(["api_key", "refresh_token"]),
      refresh_token: p.str({ min: 1, max: 200 }).optional(),
    }),
    handler: async (ctx, input) => {
      if (input.grant_type === "refresh_token") {
        if (input.refresh_token === undefined) throw validation({ refresh_token: "is required" });
        return { data: await refreshTokenPair(ctx.db, input.refresh_token) };
      }
      const a = ctx.actor;
      // An access token mints nothing: the chain would outlive the key's revocation.
      if (a.kind !== "token" || a.viaJwt) {
        throw new ApiError(
          "AuthenticationFailed",
          "grant_type=api_key needs an API key: send it as `Authorization: Token <key>`.",
          undefined,
          { "WWW-Authenticate": 'Token realm="api"' },
        );
      }
      const subject = { kind: "key", apiKeyId: a.apiKeyId, appId: a.appId, scopes: a.scopes } as const;
      return { data: await issueTokenPair(ctx.db, subject) };
    },
  },
});

export const getJwks = endpoint({
  method: "GET",
  path: "/.well-known/jwks.json",
  summary: "API v3: the public keys that verify access tokens (a JWKS document, not the envelope)",
  tags: ["Auth"],
  auth: "none",
  ias: false,
  v3: {
    response: { contentType: "application/json" },
    params: z.object({}),
    handler: async (ctx) =>
      Response.json(
        { keys: await publicKeys(ctx.db) },
        { headers: { "Cache-Control": "public, max-age=60" } },
      ),
  },
});
