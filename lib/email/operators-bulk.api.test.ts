import { afterAll, describe, expect } from "vitest";
import { makeTestApp, serverTest } from "../testing/server-test";
import type { TestServer } from "../testing/server";
import { makeUser } from "../testing/factories";
import { ok } from "../users/testing";
import { bulkKit, ids, type Op } from "../bulk/testing";
import { startSmtpSink, testEmailConfig, type SunkEmail } from "./testing";
import { NOTIFY_EMAIL_QUEUE } from "../notifications/email-queue";

const sink = await startSmtpSink();
afterAll(() => sink.close());
const it = serverTest({ email: testEmailConfig(sink, { inboundPort: 0 }) });

const random = () => Math.random().toString(36).slice(2);

/** Runs the notification emails due now, then the sends they queued. */
async function run(s: TestServer) {
  await s.server.jobs.poll(NOTIFY_EMAIL_QUEUE);
  await s.server.jobs.poll("email.send");
}

const emailOf = async (s: TestServer, op: Op) =>
  (await s.db.admin.findUniqueOrThrow({ where: { id: op.id } })).email;
const sentTo = (address: string) => sink.received.filter((m: SunkEmail) => m.envelope.to[0] === address);

/** `names.length` conversations of the app, each a new visitor's first message, the visitor named as given. */
async function visitors(s: TestServer, a: Awaited<ReturnType<typeof makeTestApp>>, names: string[]) {
  const list: bigint[] = [];
  for (const name of names) {
    const user = await makeUser(s.db, a.app.id, { name });
    const c = ok<{ id: number }>(
      await a.api.postJson(`/api/users/${user.id}/startconversation`, { body: `Hello from ${name}` }),
    );
    list.push(BigInt(c.id));
  }
  return list;
}

describe("a bulk assignment's email", () => {
  it("the assignee gets one email for the whole job, listing its conversations; the one who ran it, none", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const target = await kit.operator();
    const names = ["Ada", "Ben", "Cleo"].map((n) => `${n} ${random()}`);
    const list = await visitors(s, a, names);

    const job = await kit.run(op.api, {
      action: "assign",
      assignee: Number(target.id),
      selection: { ids: ids(list) },
    });
    expect(job).toMatchObject({ status: "done", succeeded: 3 });
    await run(s);
    const address = await emailOf(s, target);
    await expect.poll(() => sentTo(address).length).toBe(1);
    const mail = sentTo(address)[0]!;
    const text = mail.parsed.text ?? "";
    const actor = (await s.db.admin.findUniqueOrThrow({ where: { id: op.id } })).name;
    expect(mail.parsed.subject).toContain("3 conversations assigned to you");
    expect(text.split("\n")[0]).toBe(`${actor} assigned you 3 conversations.`);
    for (const [k, id] of list.entries()) {
      expect(text).toContain(names[k]);
      expect(text).toContain(`/inbox?c=${id}`);
    }
    expect(text).toContain("/inbox?assignee=mine");
    // No thread to answer into: an answer by mail could not say which conversation it is for.
    expect(mail.parsed.replyTo).toBeUndefined();
    const rows = await s.db.email.findMany({ where: { adminId: target.id } });
    expect(rows).toMatchObject([{ kind: "operator_assigned", conversationId: null }]);
    expect(sentTo(await emailOf(s, op))).toEqual([]);

    // A single assignment afterwards is emailed as before, in the conversation's thread.
    ok(await op.api.postJson(`/api/conversations/${list[0]}/assign`, { admin: String(op.id) }));
    ok(await target.api.postJson(`/api/conversations/${list[0]}/assign`, { admin: String(target.id) }));
    ok(await op.api.postJson(`/api/conversations/${list[1]}/assign`, { admin: String(op.id) }));
    ok(await op.api.postJson(`/api/conversations/${list[1]}/assign`, { admin: String(target.id) }));
    await run(s);
    await expect.poll(() => sentTo(address).length).toBe(2);
    expect(sentTo(address)[1]!.parsed.text).toContain(`/inbox?c=${list[1]}`);
    expect(sentTo(address)[1]!.parsed.replyTo).toBeDefined();
  });

  it("lists the first ten and counts the rest; a large job is still one email", async ({ server: s }) => {
    const a = await makeTestApp(s);
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const target = await kit.operator();
    const list = await kit.conversations(14);
    await kit.run(op.api, { action: "assign", assignee: Number(target.id), selection: { ids: ids(list) } });
    await run(s);
    const address = await emailOf(s, target);
    await expect.poll(() => sentTo(address).length).toBe(1);
    const text = sentTo(address)[0]!.parsed.text ?? "";
    expect(text).toContain("assigned you 14 conversations.");
    expect(text.match(/\/inbox\?c=\d+/g)).toHaveLength(10);
    expect(text).toContain("And 4 more, with all your conversations: ");
  });

  it("respects the assignee's switch and the app's operator emails, as a single assignment does", async ({
    server: s,
  }) => {
    const a = await makeTestApp(s);
    const kit = bulkKit(s, a);
    const op = await kit.operator();
    const quiet = await kit.operator();
    const off = ok<{ assigned: boolean }>(
      await quiet.api.postJson("/api/me/email_notifications", { assigned: false }),
    );
    expect(off.assigned).toBe(false);
    const first = await kit.conversations(2);
    await kit.run(op.api, { action: "assign", assignee: Number(quiet.id), selection: { ids: ids(first) } });
    // In the same app, an operator who kept the switch on is emailed.
    const keen = await kit.operator();
    const third = await kit.conversations(2);
    await kit.run(op.api, { action: "assign", assignee: Number(keen.id), selection: { ids: ids(third) } });

    const b = await makeTestApp(s);
    ok(await b.api.postJson(`/api/apps/${b.app.id}/email/settings`, { operator_emails: false }));
    const other = bulkKit(s, b);
    const op2 = await other.operator();
    const target = await other.operator();
    const second = await other.conversations(2);
    await other.run(op2.api, {
      action: "assign",
      assignee: Number(target.id),
      selection: { ids: ids(second) },
    });

    await run(s);
    const keenAddress = await emailOf(s, keen);
    await expect.poll(() => sentTo(keenAddress).length).toBe(1);
    const rows = await s.db.email.findMany({ where: { adminId: { in: [quiet.id, target.id, keen.id] } } });
    expect(rows.map((r) => r.adminId)).toEqual([keen.id]);
    // Told in the panel all the same.
    expect(await s.db.notification.count({ where: { adminId: { in: [quiet.id, target.id] } } })).toBe(2);
  });
});
