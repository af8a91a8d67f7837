import crypto from "node:crypto";
import type { Actor } from "../auth/context";
import type { Db } from "../db/client";
import { sqlOf } from "../db/sql";
import type { Served } from "./answer";
import { isDatabaseUnreachable, validation } from "./errors";
import type { ApiRequest } from "./api-request";

/**
 * `Idempotency-Key` on a POST: the first request with a key runs, every repeat gets its answer back. The key is
 * reserved (a row without an answer) before the request runs and the answer stored after it, so a repeat never
 * runs the request again, even one that arrives while the first still runs. Answers of 5xx release the key: no
 * such answer comes from a request that wrote (docs/decisions.md, "Idempotency keys").
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const KEEP = "24 hours";
/** How long a repeat waits for the first request's answer before it is told the first is in progress. */
export const WAIT_MS = 5_000;
/** A reservation this old without an answer is no longer running: its process died before answering. */
const ABANDONED_MS = 60_000;
/** Not kept on a replay: the replay has its own request ID, and cookies are not handed out twice. */
const UNSTORED = new Set(["x-request-id", "set-cookie", "content-length", "date"]);

export interface Claim {
  /** Stores `res` as the key's answer (or releases the key on a 5xx) and returns it. */
  settle(res: Served): Promise<Served>;
}

const keyError = (problem: string, message?: string) =>
  validation({ [IDEMPOTENCY_HEADER]: problem }, message);

function ownerOf(actor: Actor): string | undefined {
  if (actor.kind === "token") return `t${actor.apiKeyId}`;
  if (actor.kind === "admin") return `s${actor.sessionId}`;
  if (actor.kind === "visitor") return `v${actor.userId}`;
  return undefined;
}

function fingerprint(req: ApiRequest, input: Record<string, unknown>): string {
  const params = JSON.stringify(input, (_k, v: unknown) =>
    v instanceof File ? { file: v.name, type: v.type, size: v.size } : v,
  );
  return crypto
    .createHash("sha256")
    .update(`${req.method} ${new URL(req.url).pathname}\n${params}`)
    .digest("hex");
}

/**
 * Writes that could not reach the database (an outage right after the request ran): retried before the next
 * claim, so that a key's answer or release is not lost while this process lives.
 */
const unsaved: ((db: Db) => Promise<void>)[] = [];
let nextPurge = 0;

async function housekeeping(db: Db): Promise<void> {
  // Taken whole: concurrent claims must not run (and drop) the same entries.
  const pending = unsaved.splice(0);
  for (let i = 0; i < pending.length; i++) {
    try {
      await pending[i]!(db);
    } catch (err) {
      unsaved.unshift(...pending.slice(i));
      throw err;
    }
  }
  if (Date.now() < nextPurge) return;
  nextPurge = Date.now() + 60_000;
  await sqlOf(db).$executeRaw`
    DELETE FROM idempotency_keys WHERE (owner, key) IN (
      SELECT owner, key FROM idempotency_keys WHERE created < now() - ${KEEP}::interval LIMIT 1000)`;
}

async function persist(db: Db, write: (db: Db) => Promise<void>): Promise<void> {
  try {
    await write(db);
  } catch (err) {
    if (isDatabaseUnreachable(err)) unsaved.push(write);
    else console.error("idempotency key not saved:", err);
  }
}

interface Row {
  fingerprint: string;
  status: number | null;
  headers: Record<string, string> | string | null;
  body: string | null;
  age_ms: number;
}

function replay(row: Row, requestId: string): Response {
  const stored =
    typeof row.headers === "string" ? (JSON.parse(row.headers) as Record<string, string>) : row.headers;
  const headers = new Headers(stored ?? {});
  headers.set("X-Request-Id", requestId);
  headers.set(REPLAYED_HEADER, "true");
  return new Response(row.body, { status: row.status!, headers });
}

/**
 * For a POST with an Idempotency-Key by a token or an operator session: the stored answer of an earlier request
 * with the key (a Response), or the claim of a first request, which must settle with its answer. Without a key
 * (or without an owner for it: anonymous requests) undefined.
 */
export async function claimIdempotency(
  db: Db,
  req: ApiRequest,
  actor: Actor,
  input: Record<string, unknown>,
  requestId: string,
): Promise<Response | Claim | undefined> {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null || req.method !== "POST") return undefined;
  if (!KEY_FORMAT.test(key)) throw keyError("must be 1 to 255 printable ASCII characters");
  const owner = ownerOf(actor);
  if (owner === undefined) return undefined;
  await housekeeping(db);
  const print = fingerprint(req, input);
  const sql = sqlOf(db);
  // A key past its 24 hours is taken over as new.
  const [mine] = await sql.$queryRaw<{ mine: boolean }[]>`
    INSERT INTO idempotency_keys (owner, key, fingerprint) VALUES (${owner}, ${key}, ${print})
    ON CONFLICT (owner, key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, status = NULL, headers = NULL, body = NULL, created = now()
      WHERE idempotency_keys.created < now() - ${KEEP}::interval
    RETURNING true AS mine`;
  if (mine) return claim(db, owner, key, print);

  for (const until = Date.now() + WAIT_MS; ;) {
    const [row] = await sql.$queryRaw<Row[]>`
      SELECT fingerprint, status, headers, body,
        (extract(epoch FROM now() - created) * 1000)::float8 AS age_ms
      FROM idempotency_keys WHERE owner = ${owner} AND key = ${key}`;
    // Released meanwhile (the first answered 5xx): this request may run after all.
    if (!row) return claimIdempotency(db, req, actor, input, requestId);
    if (row.fingerprint !== print)
      throw keyError(
        "was used for a different request",
        "This Idempotency-Key was used for a different request.",
      );
    if (row.status !== null) return replay(row, requestId);
    if (row.age_ms > ABANDONED_MS)
      throw keyError(
        "interrupted",
        "The request with this Idempotency-Key was interrupted before it answered; it may have taken effect and is " +
          "not run again. Check its effect, and use a new key to try again.",
      );
    if (Date.now() >= until)
      throw keyError(
        "in progress",
        "A request with this Idempotency-Key is still in progress: retry later for its answer.",
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

function claim(db: Db, owner: string, key: string, print: string): Claim {
  return {
    async settle(res) {
      if (res.status >= 500) {
        await persist(db, async (d) => {
          await sqlOf(d).$executeRaw`
            DELETE FROM idempotency_keys WHERE owner = ${owner} AND key = ${key} AND fingerprint = ${print}
              AND status IS NULL`;
        });
        return res;
      }
      const body = res instanceof Response ? await res.clone().text() : res.text;
      const headers: Record<string, string> = {};
      for (const [k, v] of res.headers.entries()) if (!UNSTORED.has(k)) headers[k] = v;
      await persist(db, async (d) => {
        await sqlOf(d).$executeRaw`
          UPDATE idempotency_keys SET status = ${res.status}, headers = ${headers}::jsonb, body = ${body}
          WHERE owner = ${owner} AND key = ${key} AND fingerprint = ${print} AND status IS NULL`;
      });
      return res;
    },
  };
}
