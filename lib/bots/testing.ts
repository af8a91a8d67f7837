import type { TestApp } from "../testing/fixture";
import type { TestServer } from "../testing/server";
import { ok } from "../users/testing";
import { bootTestVisitor, type TestVisitor } from "../messenger/testing";
import type { VisitorPart, visitorStartedSchema } from "../messenger/visitor-schemas";
import type { z } from "zod";
import type { Bot, BotTemplate } from "./schemas";

type VisitorStarted = z.infer<typeof visitorStartedSchema>;

/** A bot of the app made through the API: the app's template `key` unless steps are given. */
export async function makeBot(app: TestApp, over: Record<string, unknown> & { template?: string } = {}) {
  const { template = "lead_bot", ...rest } = over;
  const templates = ok<BotTemplate[]>(await app.api.get(`/api/v2/apps/${app.app.id}/bot_templates`));
  const t = templates.find((x) => x.key === template)!;
  return ok<Bot>(
    await app.api.postJson(`/api/v2/apps/${app.app.id}/bots`, {
      name: t.name,
      kind: t.kind,
      start: t.start,
      steps: t.steps,
      ...rest,
    }),
  );
}

/** A new visitor who writes first: the conversation, and the visitor's calls. */
export async function visitorWrites(s: TestServer, app: TestApp, body = "Hello?") {
  const v = await bootTestVisitor(s, app);
  const started = ok<VisitorStarted>(await v.api.postJson("/api/v2/messenger/conversations", { body }));
  return { v, conversationId: String(started.conversation.id) };
}

/** The conversation's messages as its visitor sees them, oldest first. */
export async function visitorParts(v: TestVisitor, conversationId: string): Promise<VisitorPart[]> {
  const parts = ok<VisitorPart[]>(await v.api.get(`/api/v2/messenger/conversations/${conversationId}/parts`));
  return [...parts].reverse();
}

/** The visitor clicks a button of the newest part that has buttons. */
export async function clickButton(v: TestVisitor, conversationId: string, label: string) {
  const parts = await visitorParts(v, conversationId);
  const part = parts.findLast((p) => p.actions?.length);
  const action = part?.actions?.findIndex((a) => a.body === label) ?? -1;
  if (!part || action < 0)
    throw new Error(`no button "${label}" in ${JSON.stringify(parts.map((p) => p.body))}`);
  return ok<VisitorPart>(
    await v.api.postJson(`/api/v2/messenger/conversations/${conversationId}/quickreply`, {
      part: String(part.id),
      action,
    }),
  );
}

export const visitorSays = async (v: TestVisitor, conversationId: string, body: string) =>
  ok<VisitorPart>(await v.api.postJson(`/api/v2/messenger/conversations/${conversationId}/reply`, { body }));
