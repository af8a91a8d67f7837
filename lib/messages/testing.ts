import { expect, vi } from "vitest";
import type { TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { ok } from "../users/testing";
import { unique } from "../testing/factories";
import type { Message, MessageStats } from "./schemas";

export const messagesOf = (a: TestApp) => `/api/apps/${a.app.id}/messages`;

/** A chat message from the app's default operator (triggered by an event of its own unless told), through the API. */
export async function makeMessage(a: TestApp, over: Record<string, unknown> = {}): Promise<Message> {
  return ok<Message>(
    await a.api.postJson(messagesOf(a), {
      name: `Welcome ${Math.random().toString(36).slice(2, 8)}`,
      kind: "chat",
      content: { sender: Number(a.admin.id), body: "Hi! Can I help?" },
      trigger: { event: unique("viewed") },
      ...over,
    }),
  );
}

/** A user event through the REST API, as a site's backend tracks it. */
export async function track(a: TestApp, userId: bigint, event: string, params: object = {}) {
  ok(await a.api.postJson(`/api/users/${userId}/events`, { event, params }));
}

export interface SendRow {
  id: bigint;
  state: string;
  reason: string | null;
  control: boolean;
  userId: bigint;
  dueAt: Date;
  sentAt: Date | null;
  goalAt: Date | null;
}

export const sendsOf = (s: TestServer, messageId: number | string) =>
  s.db.messageSend.findMany({ where: { messageId: BigInt(messageId) }, orderBy: { id: "asc" } }) as Promise<
    SendRow[]
  >;

/** Waits until the message has `n` sends that all left `scheduled` (sent, held or skipped). */
export async function settled(s: TestServer, messageId: number | string, n: number, timeout = 15_000) {
  return vi.waitFor(
    async () => {
      const rows = await sendsOf(s, messageId);
      expect(rows.length).toBe(n);
      expect(rows.filter((r) => r.state === "scheduled")).toEqual([]);
      return rows;
    },
    { timeout, interval: 50 },
  );
}

export const statsOf = async (a: TestApp, messageId: number | string) =>
  ok<MessageStats>(await a.api.get(`${messagesOf(a)}/${messageId}/stats`));

/** Waits until the messages' reader of the event log has read every row written so far. */
export async function consumed(s: TestServer) {
  const [end] = await s.db.$queryRaw<{ id: bigint | null }[]>`SELECT max(id) AS id FROM event_log`;
  await vi.waitFor(
    async () => {
      const c = await s.db.logCursor.findUniqueOrThrow({ where: { name: "messages" } });
      expect(c.position >= (end?.id ?? 0n)).toBe(true);
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** Makes the message's scheduled sends due now (what its timeout ending does) and wakes their jobs. */
export async function dueNow(s: TestServer, messageId: number | string) {
  await s.db.$executeRaw`
    UPDATE jobs SET run_at = now() WHERE queue = 'messages.send' AND status = 'queued'
      AND (payload->>'send')::bigint IN (SELECT id FROM message_sends WHERE message_id = ${BigInt(messageId)})`;
  s.server.jobs.wake("messages.send");
}
