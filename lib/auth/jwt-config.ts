/** API v3 access tokens: the one algorithm signed and accepted (never `none`, never HS/RS). */
export const JWT_ALG = "EdDSA";
export const JWT_CURVE = "Ed25519";
export const JWT_ISSUER = "relay";
/** An access token's life: the bound on how long one outlives a revocation that misses an instance. */
export const ACCESS_TTL_SECONDS = 300;
/** A refresh token's life; each rotation starts a new one. */
export const REFRESH_TTL_SECONDS = 14 * 24 * 3600;
/** A signing key is replaced after this long (checked when keys load, and by the job). */
export const KEY_ROTATE_AFTER_MS = 30 * 24 * 3600_000;
/** Every instance re-reads the keys this often, so a rotation elsewhere is signed with here within it. */
export const KEYS_RELOAD_MS = 60_000;
/** A retired key still verifies: tokens signed with it until its retirement (and a reload later) must live out. */
export const RETIRED_KEY_KEEP_MS = (ACCESS_TTL_SECONDS + 60) * 1000 + KEYS_RELOAD_MS;
export const appAudience = (appId: bigint) => `relay:app:${appId}`;
