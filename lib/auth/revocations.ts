import { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { sqlOf, type Queryable } from "../db/sql";
import { withEvents } from "../eventlog/append";
import { finalPosition } from "../eventlog/final-position";
import { INTERNAL_CHANNEL } from "../eventlog/internal";
import { TAIL_POLL_MS } from "../eventlog/keys";
import { tryRuntime } from "../server/runtime";
import { ACCESS_TTL_SECONDS } from "./jwt-config";
import { noteRevoked } from "./revoked";

/**
 * Access taken away, on every instance whichever process took it (the API, the panel, the CLI, another instance):
 * the revocation is an event-log row on the internal channel, written in the transaction that revokes, and every
 * instance's hub applies it as it tails the log (lib/realtime/hub.ts): the names go into the revoked set
 * (lib/auth/revoked.ts) and the sockets in the rooms of those names close. The revoking process applies it at once.
 *
 * A name is what a token or a socket answers to: `key:<api key>`, `admin:<operator>`, `sid:<operator session>`,
 * `visitor:<user>`, `fam:<refresh family>`. Sockets join the rooms of their names (lib/realtime/io.ts).
 */
const REVOKED = "access_revoked";

const revocationSchema = z.object({ names: z.array(z.string().max(100)).min(1).max(100), at: z.number() });
type Revocation = z.infer<typeof revocationSchema>;

/** Here: the names' tokens issued up to `at` refused, their sockets on this instance closed. */
export function applyRevocation(r: Revocation): void {
  for (const name of r.names) noteRevoked(name, r.at);
  const io = tryRuntime()?.io;
  if (io) for (const name of r.names) io.local.in(name).disconnectSockets(true);
}

/** A revocation row read from the log (the hub's tail): applied here. */
export function applyLoggedRevocation(type: string, payload: unknown): void {
  const r = revocationSchema.safeParse(payload);
  if (type === REVOKED && r.success) applyRevocation(r.data);
  else console.warn(`internal event-log row not understood: ${type}`);
}

/**
 * The revocations of the last access-token lifetime up to `upTo`, for an instance that starts: tokens revoked
 * before it started are refused by it too.
 */
export async function applyRecentRevocations(q: Queryable, upTo: bigint): Promise<void> {
  const rows = await q.$queryRaw<{ type: string; payload: unknown }[]>`
    SELECT type, payload FROM event_log
    WHERE channel = ${INTERNAL_CHANNEL} AND id <= ${upTo}
      AND created > now() - ${ACCESS_TTL_SECONDS + 60}::int * INTERVAL '1 second'
    ORDER BY id`;
  for (const row of rows) applyLoggedRevocation(row.type, row.payload);
}

/** Marks `names` revoked as of `at` (default: now, when called: after the locks `fn` took). */
export type Revoke = (names: string[], at?: number) => void;

/**
 * Runs `fn` in one transaction on the driver; what it revokes (`revoke`) is logged in that transaction, then, after
 * the commit, applied here at once and the hub woken. Refresh tokens and the rows `fn` changes go with it: a
 * rollback revokes nothing.
 */
export async function withRevocations<T>(
  db: Db,
  fn: (tx: Queryable, revoke: Revoke) => Promise<T>,
): Promise<T> {
  let revoked: Revocation[] = [];
  const value = await withEvents(sqlOf(db), (tx, emit) => {
    // Afresh on each attempt: withEvents runs `fn` again after a deadlock rolled it back.
    revoked = [];
    return fn(tx, (names, at = Date.now()) => {
      if (!names.length) return;
      const r = { names, at };
      revoked.push(r);
      emit({ appId: null, channel: INTERNAL_CHANNEL, type: REVOKED, payload: r });
    });
  });
  for (const r of revoked) applyRevocation(r);
  return value;
}

/**
 * Resolves once every running instance has applied the revocations committed so far: once their rows are final
 * (earlier writers in flight done) and every hub has read the log since (they read it on each NOTIFY, and at the
 * latest every TAIL_POLL_MS). For a process with no hub of its own (the CLI), so that its command returns only
 * when the revoked tokens are refused everywhere.
 */
export async function revocationsApplied(db: Db): Promise<void> {
  await finalPosition(sqlOf(db));
  await new Promise((r) => setTimeout(r, TAIL_POLL_MS + 250));
}

/**
 * Revokes the refresh tokens `where` selects, locking them in ID order: a family's first token (its root, the
 * lowest ID) before the others, as a rotation does (lib/auth/refresh-tokens.ts), so the two never deadlock and a
 * rotation in flight is waited for; the successor it inserts is then refused by its root's revocation.
 */
export async function revokeRefreshRows(tx: Queryable, where: Prisma.Sql): Promise<void> {
  await tx.$executeRaw`
    UPDATE refresh_tokens SET revoked_at = now() WHERE id IN (
      SELECT id FROM refresh_tokens WHERE ${where} AND revoked_at IS NULL ORDER BY id FOR UPDATE)`;
}
