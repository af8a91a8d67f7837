import type { TestServer } from "./server";
import { makeAdmin, makeUser, unique } from "./factories";
import { REPORT_SERIES } from "../reports/schemas";
import { unsubscribeToken } from "../email/tokens";
import { ratingToken } from "../csat/tokens";

/**
 * One real object of an app for every path parameter of the catalog, made through the API, and for each endpoint
 * parameters that pass validation: the suites that sweep the catalog (fuzz, isolation) start from these.
 */
export interface CatalogObjects {
  app: string;
  conversation: string;
  user: string;
  attachment: string;
  part: string;
  note_id: string;
  segment_id: string;
  reply_id: string;
  webhook_id: string;
  key_id: string;
  job_id: string;
  bulk_job_id: string;
  email_id: string;
  message_id: string;
  bot_id: string;
  /** The user's unsubscribe link token. */
  unsubscribe: string;
  /** A rating email's link token for the conversation (asked, lib/csat): a score of 5. */
  rating: string;
  /** An operator of the app besides its default admin. */
  admin_id: string;
  /** Stored strings of the app: what another app must never see. */
  secrets: string[];
}

export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 1),
]);

export async function makeCatalogObjects(
  s: TestServer,
  app: { app: { id: bigint; name: string }; token: string; admin: { email: string; name: string } },
): Promise<CatalogObjects> {
  const as = async (method: string, path: string, json?: unknown) => {
    const r = await s.call(path, { method, headers: { Authorization: `Token ${app.token}` }, json });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
    return r.body.data as Record<string, unknown>;
  };
  const email = `${unique("alice")}@secret.test`;
  const userName = unique("Alice Secret");
  const externalId = unique("ext-secret");
  const user = await makeUser(s.db, app.app.id, { email, name: userName, userId: externalId });
  const body = unique("secret body");
  const conv = await as("POST", `/api/users/${user.id}/startconversation`, { body });
  const fd = new FormData();
  fd.set("body", unique("secret reply"));
  fd.set("attachment", new Blob([new Uint8Array(PNG)]), "secret.png");
  const reply = await s.call(`/api/conversations/${String(conv.id)}/reply`, {
    method: "POST",
    headers: { Authorization: `Token ${app.token}` },
    body: fd,
  });
  const part = reply.body.data as { id: number; body: string; attachments: { url: string }[] };
  // The conversation's visitor asked to rate it (lib/csat), so a rating link of it can rate it.
  await s.db.conversationRating.create({
    data: { conversationId: BigInt(String(conv.id)), appId: app.app.id, userId: user.id },
  });
  const attachment = /attachments\/(\d+)/.exec(part.attachments[0]!.url)![1]!;
  const noteBody = unique("secret note");
  const note = await as("POST", `/api/users/${user.id}/notes`, { body: noteBody });
  const segName = unique("SecretSegment");
  const seg = await as("POST", `/api/apps/${app.app.id}/segments`, {
    name: segName,
    filters: { type: "and", filters: [{ property_name: "$email", type: "known", value: {} }] },
  });
  const savedReplyBody = unique("secret saved reply");
  const saved = await as("POST", `/api/v2/apps/${app.app.id}/saved_replies`, {
    shortcut: unique("s").toLowerCase(),
    title: "Saved",
    body: savedReplyBody,
  });
  const hookUrl = `http://127.0.0.1:9/${unique("secret-hook")}`;
  const hook = await as("POST", `/api/v2/apps/${app.app.id}/webhooks`, {
    url: hookUrl,
    events: ["user.event"],
  });
  const messenger = await as("POST", `/api/v2/apps/${app.app.id}/messenger/identity_secret`);
  const key = await s.db.apiKey.findFirstOrThrow({ where: { appId: app.app.id } });
  const job = await s.db.importJob.create({ data: { appId: app.app.id, mergeField: "$email" } });
  const bulkJob = await s.db.bulkJob.create({ data: { appId: app.app.id, action: "close", status: "done" } });
  const subject = unique("secret subject");
  const sent = await s.db.email.create({
    data: {
      appId: app.app.id,
      conversationId: BigInt(String(conv.id)),
      kind: "continuity",
      userId: user.id,
      toAddress: email,
      fromName: app.app.name,
      fromAddress: `app-${app.app.id}@mail.test`,
      messageId: `<${unique("relay")}@mail.test>`,
      subject,
      text: body,
      html: body,
    },
  });
  const messageName = unique("Secret message");
  const messageBody = unique("secret message body");
  const owner = await s.db.app.findUniqueOrThrow({ where: { id: app.app.id } });
  const message = await as("POST", `/api/v2/apps/${app.app.id}/messages`, {
    name: messageName,
    kind: "chat",
    content: { sender: Number(owner.defaultAdminId), body: messageBody },
    trigger: { event: unique("secret-trigger") },
  });
  const botName = unique("Secret bot");
  const botLine = unique("secret bot line");
  const bot = await as("POST", `/api/v2/apps/${app.app.id}/bots`, {
    name: botName,
    kind: "lead_bot",
    status: "paused",
    steps: [{ type: "text", body: botLine }],
  });
  const member = await makeAdmin(s.db, {
    appId: app.app.id,
    name: unique("Olga Secret"),
    email: `${unique("olga")}@secret.test`,
  });
  return {
    app: String(app.app.id),
    conversation: String(conv.id),
    user: String(user.id),
    attachment,
    part: String(part.id),
    note_id: String(note.id),
    segment_id: String(seg.id),
    reply_id: String(saved.id),
    webhook_id: String(hook.id),
    key_id: String(key.id),
    job_id: String(job.id),
    bulk_job_id: String(bulkJob.id),
    email_id: String(sent.id),
    message_id: String(message.id),
    bot_id: String(bot.id),
    unsubscribe: await unsubscribeToken(s.db, user.id),
    rating: await ratingToken(s.db, BigInt(String(conv.id)), 5),
    admin_id: String(member.id),
    secrets: [
      member.name,
      member.email,
      app.app.name,
      email,
      userName,
      externalId,
      body,
      part.body,
      noteBody,
      segName,
      subject,
      messageName,
      messageBody,
      botName,
      botLine,
      savedReplyBody,
      hookUrl,
      app.admin.email,
      app.admin.name,
      key.prefix,
      hook.secret as string,
      messenger.identity_secret as string,
      messenger.public_key as string,
    ],
  };
}

/** The catalog path with the app's objects in it. */
export function fillPath(path: string, o: CatalogObjects): string {
  const top = path.split("/")[1];
  return path.replace(/\{(\w+)\}/g, (_m, k: string) => {
    if (k !== "id") return (o as unknown as Record<string, string>)[k]!;
    if (top === "apps") return o.app;
    if (top === "conversations") return o.conversation;
    if (top === "attachments") return o.attachment;
    return o.user;
  });
}

/** Parameters that pass each endpoint's validation (none needed when absent). */
export function validParams(method: string, path: string, o: CatalogObjects, adminId: bigint) {
  const table: Record<string, Record<string, unknown>> = {
    "POST /auth/login": { email: "nobody@example.test", password: "wrong password" },
    "GET /attachments/{id}": { expires: 4_000_000_000, signature: "0".repeat(64) },
    "POST /conversations/{id}/quickreply": { part: o.part, action: 0 },
    "POST /conversations/{id}/reply": { body: "hello" },
    "POST /conversations/{id}/settyping": { body: "typing" },
    "DELETE /conversations/{id}/tag": { tag: "vip" },
    "POST /conversations/{id}/tag": { tag: "vip", action: "add" },
    "POST /conversations/{id}/assign": { admin: String(adminId) },
    "POST /conversations/{id}/delay": { until: 4_000_000_000 },
    "POST /users/{id}/sendmessage": { body: "hello" },
    "POST /users/{id}/startconversation": { body: "hello" },
    "POST /users/{id}/webpush": { subscribed: true },
    "DELETE /users/{id}/tags": { tag: "vip" },
    "POST /users/{id}/notes": { body: "a note" },
    "POST /users/{id}/tags": { tag: "vip" },
    "POST /users/{id}/props": { operations: [{ op: "update_or_create", key: "k", value: 1 }] },
    "POST /users/{id}/events": { event: "Clicked" },
    "POST /users/{id}/setpresence": { presence: "online" },
    "POST /apps/{id}/availability": { status: "away" },
    "POST /apps/{id}/routing": { routing: "round_robin", routing_cap: 2 },
    "POST /apps/{id}/segments": { name: "S", filters: { type: "and", filters: [] } },
    "POST /apps/{id}/segments/{segment_id}": { name: "S2" },
    "PUT /apps/{id}/segments/{segment_id}": { name: "S2" },
    "POST /notifications/read": { all: true },
    "POST /apps/{id}/saved_replies": { shortcut: "sweep", title: "T", body: "B" },
    "POST /apps/{id}/saved_replies/{reply_id}": { title: "T2" },
    "POST /apps/{id}/webhooks": { url: "http://127.0.0.1:9/hook", events: ["user.event"] },
    "PATCH /apps/{id}/webhooks/{webhook_id}": { active: true },
    "POST /apps/{id}/webhooks/{webhook_id}": { active: true },
    "POST /apps/{id}/api_keys": { name: "key" },
    "POST /apps/{id}/messenger": { greeting: "Hi", allowed_origins: ["https://shop.example.test"] },
    "POST /apps/{id}/admins": {
      email: "new-operator@example.test",
      name: "New",
      password: "long enough password",
    },
    "POST /users/import": { merge_field: "$email" },
    // Leads in the results need users-list too (the search API test covers it); conversations alone: the endpoint's scope.
    "GET /apps/{id}/search": { q: "Alice" },
    "POST /apps/{id}/conversations/bulk": { action: "tag", tag: "vip", selection: { ids: [o.conversation] } },
    "POST /apps/{id}/settings": { time_zone: "Europe/Paris" },
    "POST /apps/{id}/email/settings": { sender_name: "Support" },
    "GET /apps/{id}/email/bounces": { address: "someone@example.test" },
    "POST /apps/{id}/office_hours": { office_hours: { weekly: { mon: [["09:00", "17:00"]] } } },
    "POST /email/unsubscribe": { t: o.unsubscribe },
    "POST /apps/{id}/csat": { enabled: true },
    "POST /csat/rate": { t: o.rating },
    "GET /apps/{id}/reports/csat": { from: "2026-01-01", to: "2026-01-31" },
    "GET /apps/{id}/reports/breakdown": { from: "2026-01-01", to: "2026-01-31", by: "tag" },
    "GET /apps/{id}/reports/export": { from: "2026-01-01", to: "2026-01-31" },
    "POST /apps/{id}/messages": {
      name: "Sweep",
      kind: "popup",
      content: { title: "T", body: "B" },
      trigger: { event: "sweep" },
    },
    "POST /apps/{id}/messages/{message_id}": { name: "Sweep 2" },
    "POST /apps/{id}/bots": { name: "Sweep", kind: "lead_bot", status: "paused", steps: [{ type: "close" }] },
    "POST /apps/{id}/bots/{bot_id}": { name: "Sweep 2" },
    "POST /apps/{id}/email/inbound": {
      raw: `From: pasted@example.test\nTo: app-${o.app}@localhost\nSubject: Pasted\n\nHello`,
    },
    ...Object.fromEntries(
      REPORT_SERIES.map((s) => [`GET /apps/{id}/reports/${s}`, { from: "2026-01-01", to: "2026-01-31" }]),
    ),
  };
  return table[`${method} ${path}`] ?? {};
}
