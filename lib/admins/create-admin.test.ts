import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { verifyPassword } from "../auth/passwords";
import { createApp } from "../apps/create-app";
import { createAdmin } from "./create-admin";
import { isDomainError } from "../domain/errors";
import { InputError } from "./input";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

const uniq = () => crypto.randomBytes(4).toString("hex");
const email = () => `op-${uniq()}@example.com`;
const makeApp = () =>
  createApp(t.db, { name: `App ${uniq()}`, adminEmail: email(), adminPassword: `pw-${uniq()}-long` });

describe("createAdmin", () => {
  it("creates an operator of the app", async () => {
    const { app } = await makeApp();
    const e = email();
    const res = await createAdmin(t.db, { appId: app.id, email: e, password: "secret-pass", name: "Olga" });
    expect(res).toMatchObject({ created: true, admin: { email: e, name: "Olga" } });
    const member = await t.db.appAdmin.findUniqueOrThrow({
      where: { appId_adminId: { appId: app.id, adminId: res.admin.id } },
    });
    expect(member.role).toBe("operator");
    const admin = await t.db.admin.findUniqueOrThrow({ where: { id: res.admin.id } });
    expect(await verifyPassword("secret-pass", admin.passwordHash)).toBe(true);
  });

  it("adds an existing admin to another app without touching their password", async () => {
    const a = await makeApp();
    const b = await makeApp();
    const e = email();
    const first = await createAdmin(t.db, { appId: a.app.id, email: e, password: "first-password" });
    const second = await createAdmin(t.db, { appId: b.app.id, email: e, password: "other-password" });
    expect(second).toMatchObject({ created: false, admin: { id: first.admin.id } });
    expect(await t.db.appAdmin.count({ where: { adminId: first.admin.id } })).toBe(2);
    const admin = await t.db.admin.findUniqueOrThrow({ where: { id: first.admin.id } });
    expect(await verifyPassword("first-password", admin.passwordHash)).toBe(true);
  });

  it("refuses an admin who is already a member", async () => {
    const { app, admin } = await makeApp();
    await expect(
      createAdmin(t.db, { appId: app.id, email: admin.email, password: "whatever-1" }),
    ).rejects.toThrow(/already an operator of app/);
  });

  it("refuses an app that does not exist", async () => {
    const err = await createAdmin(t.db, { appId: 987654321n, email: email(), password: "long-enough" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe("App 987654321 does not exist.");
  });

  it.each([
    [{ email: "a@b" }, "email"],
    [{ email: "" }, "email"],
    [{ password: "1234567" }, "password"],
    [{ name: "n".repeat(256) }, "name"],
  ] as const)("refuses bad input %j and creates nothing", async (over, field) => {
    const { app } = await makeApp();
    const admins = await t.db.admin.count();
    const err = await createAdmin(t.db, {
      appId: app.id,
      email: email(),
      password: "long-enough",
      ...over,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe(field);
    // The API tells it as a ValidationError whose one field says what the message says.
    expect(isDomainError(err) && [err.kind, err.fields]).toEqual([
      "invalid",
      { [field]: (err as Error).message },
    ]);
    expect(await t.db.admin.count()).toBe(admins);
  });
});
