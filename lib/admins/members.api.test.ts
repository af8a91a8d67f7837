import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestOperator } from "../testing/fixture";
import { client } from "../testing/http";
import { makeAdmin, makeApp, TEST_PASSWORD, unique } from "../testing/factories";
import type { Called } from "../testing/server";
import { errorOf, ok } from "../users/testing";
import { eventsOf, lastEventId, startConversation } from "../conversations/testing";

interface Member {
  id: number;
  type: string;
  name: string;
  email: string;
  role: string;
}

/** An app whose default admin is an owner, with a logged-in session for them. */
async function ownedApp(s: TestServer, operator: (adminId: bigint) => Promise<TestOperator>) {
  const a = await makeApp(s.db);
  await s.db.appAdmin.update({
    where: { appId_adminId: { appId: a.app.id, adminId: a.admin.id } },
    data: { role: "owner" },
  });
  return { ...a, owner: await operator(a.admin.id) };
}

const email = () => `${unique("new")}@example.test`;
const login = (s: TestServer, e: string, password: string) =>
  s.call("/api/auth/login", { method: "POST", json: { email: e, password } });

function fieldError(r: Called, field: string) {
  const meta = errorOf(r, 400, "ValidationError");
  expect(Object.keys(meta.error_fields ?? {})).toContain(field);
  return meta;
}

describe("POST /apps/{id}/admins", () => {
  it("adds a new operator who can then log in and see the app", async ({ server: s, operator }) => {
    const a = await ownedApp(s, operator);
    const e = email();
    const op = ok<Member>(
      await a.owner.postJson(`/api/apps/${a.app.id}/admins`, {
        email: ` ${e.toUpperCase()} `,
        name: "Olga",
        password: "olga-secret-1",
      }),
    );
    expect(op).toMatchObject({ type: "admin", name: "Olga", email: e, role: "operator" });
    const list = ok<Member[]>(await a.owner.get(`/api/apps/${a.app.id}/admins`));
    expect(list.map((x) => x.id)).toContain(op.id);
    const logged = ok<{ apps: { id: number; role: string }[] }>(await login(s, e, "olga-secret-1"));
    expect(logged.apps).toEqual([expect.objectContaining({ id: Number(a.app.id), role: "operator" })]);
  });

  it("adds an existing admin without a password and leaves theirs untouched", async ({
    server: s,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const other = await makeAdmin(s.db, { name: "Elsewhere" });
    const op = ok<Member>(
      await a.owner.postJson(`/api/apps/${a.app.id}/admins`, {
        email: other.email,
        name: "Renamed?",
        password: "another-password",
        role: "owner",
      }),
    );
    expect(op).toMatchObject({ id: Number(other.id), name: "Elsewhere", role: "owner" });
    ok(await login(s, other.email, TEST_PASSWORD));
    errorOf(await login(s, other.email, "another-password"), 401, "AuthenticationFailed");
  });

  it("refuses a member twice, a new email without a password, and bad input, adding nobody", async ({
    server: s,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const path = `/api/apps/${a.app.id}/admins`;
    const before = await s.db.appAdmin.count({ where: { appId: a.app.id } });
    expect(fieldError(await a.owner.postJson(path, { email: a.admin.email }), "email").error_message).toMatch(
      /already an operator/,
    );
    expect(fieldError(await a.owner.postJson(path, { email: email() }), "password").error_message).toMatch(
      /password is required/,
    );
    fieldError(await a.owner.postJson(path, { email: "not-an-email", password: "long-enough" }), "email");
    fieldError(await a.owner.postJson(path, { password: "long-enough" }), "email");
    fieldError(await a.owner.postJson(path, { email: email(), password: "short" }), "password");
    fieldError(await a.owner.postJson(path, { email: email(), password: "long-enough", name: "" }), "name");
    fieldError(
      await a.owner.postJson(path, { email: email(), password: "long-enough", name: "n".repeat(256) }),
      "name",
    );
    fieldError(
      await a.owner.postJson(path, { email: email(), password: "long-enough", role: "god" }),
      "role",
    );
    expect(await s.db.appAdmin.count({ where: { appId: a.app.id } })).toBe(before);
  });

  it("answers concurrent adds of one email with one success, the others told it is already an operator", async ({
    server: s,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const path = `/api/apps/${a.app.id}/admins`;
    const existing = await makeAdmin(s.db);
    // A new email races on creating the admin, an existing admin's on the membership.
    for (const e of [email(), existing.email]) {
      const all = await Promise.all(
        Array.from({ length: 6 }, () =>
          a.owner.postJson(path, { email: e, password: "long enough password" }),
        ),
      );
      expect(all.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of all.filter((x) => x.status !== 200))
        expect(fieldError(r, "email").error_message).toMatch(/already an operator/);
      expect(await s.db.appAdmin.count({ where: { appId: a.app.id, admin: { email: e } } })).toBe(1);
    }
  });

  it("is for the app's owners: operators, tokens and other apps are refused", async ({
    server: s,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const b = await ownedApp(s, operator);
    const member = await makeAdmin(s.db, { appId: a.app.id });
    const body = { email: email(), password: "long-enough" };
    const path = `/api/apps/${a.app.id}/admins`;
    errorOf(await (await operator(member.id)).postJson(path, body), 403, "PermissionDenied");
    errorOf(await client(s, a.token).postJson(path, body), 403, "PermissionDenied");
    errorOf(await b.owner.postJson(path, body), 403, "PermissionDenied");
    expect(await s.db.admin.count({ where: { email: body.email } })).toBe(0);
    // Any member may list.
    expect(ok<Member[]>(await (await operator(member.id)).get(path))).toHaveLength(2);
  });

  it("has no v1 form", async ({ server: s, operator }) => {
    const a = await ownedApp(s, operator);
    const r = await s.call(`/api/v1/apps/${a.app.id}/admins`, {
      method: "POST",
      headers: { cookie: a.owner.cookie },
      json: { email: email(), password: "long-enough" },
    });
    expect(r.status).toBe(404);
  });
});

describe("DELETE /apps/{id}/admins/{admin_id}", () => {
  it("removes the membership and unassigns their open conversations with the usual events", async ({
    server: s,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const c = client(s, a.token);
    const open1 = await startConversation(c, s.db, a.app.id);
    const open2 = await startConversation(c, s.db, a.app.id);
    const closed = await startConversation(c, s.db, a.app.id);
    for (const x of [open1, open2, closed]) {
      ok(await c.postForm(`/api/conversations/${x.id}/assign`, { admin: String(op.id) }));
    }
    ok(await c.postForm(`/api/conversations/${closed.id}/close`));
    const after = await lastEventId(s.db);

    const removed = ok<{ unassigned: number }>(await a.owner.del(`/api/apps/${a.app.id}/admins/${op.id}`));
    expect(removed).toEqual({ unassigned: 2 });
    expect(await s.db.appAdmin.count({ where: { appId: a.app.id, adminId: op.id } })).toBe(0);
    // The admin stays (they may belong to other apps).
    expect(await s.db.admin.count({ where: { id: op.id } })).toBe(1);

    const convs = await s.db.conversation.findMany({
      where: { id: { in: [open1.id, open2.id, closed.id] } },
      orderBy: { id: "asc" },
      select: { id: true, assigneeId: true },
    });
    expect(convs.map((x) => x.assigneeId)).toEqual([null, null, op.id]);

    const assigned = await eventsOf(s.db, `conversation_assigned.${a.app.id}`, after);
    expect(assigned.map((e) => (e.payload as { conversation: number }).conversation)).toEqual([
      Number(open1.id),
      Number(open2.id),
    ]);
    for (const e of assigned) {
      expect(e.payload).toMatchObject({
        assignee: null,
        part: { type: "assigned", from: { type: "admin" } },
      });
    }
    const parts = await eventsOf(s.db, `conversation_reply.${a.app.id}`, after);
    expect(parts).toHaveLength(2);
    const convEvents = await eventsOf(s.db, `conversation.${a.app.id}`, after);
    expect(convEvents).toHaveLength(2);
  });

  it("ends the removed operator's access to the app: API calls and sockets", async ({
    server: s,
    sockets,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const theirs = await operator(op.id);
    ok(await theirs.get(`/api/apps/${a.app.id}/admins`));
    const socket = await sockets.open({ cookie: theirs.cookie });
    const dropped = new Promise<string>((resolve) => socket.once("disconnect", resolve));

    ok(await a.owner.del(`/api/apps/${a.app.id}/admins/${op.id}`));
    errorOf(await theirs.get(`/api/apps/${a.app.id}/admins`), 403, "PermissionDenied");
    expect(await dropped).toBe("io server disconnect");
    // A new socket is authorised afresh and may no longer listen to the app.
    const again = await sockets.open({ cookie: theirs.cookie });
    const ack = (await again.emitWithAck("subscribe", { channels: [`conversation.${a.app.id}`] })) as {
      refused: string[];
    };
    expect(ack.refused).toEqual([`conversation.${a.app.id}`]);
  });

  it("refuses the default admin, the last owner, the last member and a non-member", async ({
    server: s,
    operator,
  }) => {
    const a = await ownedApp(s, operator);
    const path = (id: bigint) => `/api/apps/${a.app.id}/admins/${id}`;
    expect(fieldError(await a.owner.del(path(a.admin.id)), "admin_id").error_message).toMatch(
      /default admin/,
    );

    const second = await makeAdmin(s.db, { appId: a.app.id });
    await s.db.appAdmin.update({
      where: { appId_adminId: { appId: a.app.id, adminId: second.id } },
      data: { role: "owner" },
    });
    await s.db.app.update({ where: { id: a.app.id }, data: { defaultAdminId: second.id } });
    // Now the first owner may go, but not both.
    const secondSession = await operator(second.id);
    ok(await secondSession.del(path(a.admin.id)));
    expect(fieldError(await secondSession.del(path(second.id)), "admin_id").error_message).toMatch(
      /default admin/,
    );
    await s.db.app.update({ where: { id: a.app.id }, data: { defaultAdminId: null } });
    expect(fieldError(await secondSession.del(path(second.id)), "admin_id").error_message).toMatch(
      /last operator/,
    );
    const third = await makeAdmin(s.db, { appId: a.app.id });
    expect(fieldError(await secondSession.del(path(second.id)), "admin_id").error_message).toMatch(
      /last owner/,
    );
    ok(await secondSession.del(path(third.id)));
    errorOf(await secondSession.del(path(third.id)), 400, "LookupError");
    errorOf(await secondSession.del(path(987654321n)), 400, "LookupError");
  });

  it("is for the app's owners: operators and tokens are refused", async ({ server: s, operator }) => {
    const a = await ownedApp(s, operator);
    const op = await makeAdmin(s.db, { appId: a.app.id });
    const other = await makeAdmin(s.db, { appId: a.app.id });
    const path = `/api/apps/${a.app.id}/admins/${other.id}`;
    errorOf(await (await operator(op.id)).del(path), 403, "PermissionDenied");
    errorOf(await client(s, a.token).del(path), 403, "PermissionDenied");
    expect(await s.db.appAdmin.count({ where: { appId: a.app.id } })).toBe(3);
  });
});
