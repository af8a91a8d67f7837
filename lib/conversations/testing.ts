import { expect } from "vitest";
import type { Db } from "../db/client";
import type { Called, TestServer } from "../testing/server";
import { client, type Client } from "../testing/http";
import { makeAdmin, makeApp, makeUser, unique } from "../testing/factories";

/** Helpers for the conversation API tests: envelopes checked, and conversations made through the API. */
export type Json = Record<string, unknown>;

export function ok(r: Called): Json {
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${r.text.slice(0, 400)}`);
  return r.body.data as Json;
}

export function fails(r: Called, status: number, error: string, field?: string): void {
  expect({ status: r.status, error: r.body.meta.error }, r.text.slice(0, 300)).toEqual({ status, error });
  expect(r.body.data).toEqual({});
  if (field) expect(Object.keys(r.body.meta.error_fields ?? {})).toContain(field);
}

/** A visitor's conversation started through the API; returns its ID and the user's. */
export async function startConversation(c: Client, db: Db, appId: bigint, body = "Hello") {
  const user = await makeUser(db, appId);
  const d = ok(await c.postForm(`/api/users/${user.id}/startconversation`, { body }));
  return { id: BigInt(d.id as number), userId: user.id };
}

export async function conversationRow(db: Db, id: bigint) {
  return db.conversation.findUniqueOrThrow({ where: { id } });
}

/** What the conversation's counters must be, recomputed from its parts. */
export async function recount(db: Db, id: bigint) {
  const parts = await db.conversationPart.findMany({ where: { conversationId: id }, orderBy: { id: "asc" } });
  const last = (f: (p: (typeof parts)[number]) => boolean) => [...parts].reverse().find(f)?.id ?? null;
  return {
    partsCount: parts.length,
    unreadPartsCount: parts.filter((p) => p.type === "reply_user" && !p.read).length,
    partLastId: last(() => true),
    importantPartLastId: last((p) => ["reply_user", "reply_admin", "note", "article"].includes(p.type)),
    replyLastId: last((p) => ["reply_user", "reply_admin", "article"].includes(p.type)),
  };
}

export async function eventsOf(db: Db, channel: string, afterId = 0n) {
  return db.eventLogEntry.findMany({ where: { channel, id: { gt: afterId } }, orderBy: { id: "asc" } });
}

export async function lastEventId(db: Db): Promise<bigint> {
  const e = await db.eventLogEntry.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return e?.id ?? 0n;
}

/**
 * An app routing round robin (or as `routing`'s fields say) among `n` operators besides its default admin, who is
 * Away; with a second channel for per-channel routing. The operators are in ID order, the order of turns.
 */
export async function routedApp(s: TestServer, n: number, routing: Json = {}) {
  const a = await makeApp(s.db);
  const api = client(s, a.token);
  await s.db.appAdmin.update({
    where: { appId_adminId: { appId: a.app.id, adminId: a.admin.id } },
    data: { availability: "away" },
  });
  const ops = [];
  for (let k = 0; k < n; k++) ops.push(await makeAdmin(s.db, { appId: a.app.id }));
  const second = await s.db.channel.create({ data: { appId: a.app.id, name: `Second ${a.app.id}` } });
  ok(await api.postJson(`/api/apps/${a.app.id}/routing`, { routing: "round_robin", ...routing }));
  return { ...a, api, ops, second };
}

export { makeUser, unique };
