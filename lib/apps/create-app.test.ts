import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { verifyPassword } from "../auth/passwords";
import { SCOPES } from "../auth/scopes";
import { verifyApiKey } from "../auth/tokens";
import { InputError } from "../admins/input";
import { createApp, type CreateAppInput } from "./create-app";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

const uniq = () => crypto.randomBytes(4).toString("hex");
const appInput = (over: Partial<CreateAppInput> = {}): CreateAppInput => ({
  name: `App ${uniq()}`,
  adminEmail: `owner-${uniq()}@example.com`,
  adminPassword: `pw-${uniq()}-long`,
  ...over,
});

describe("createApp", () => {
  it("creates the app, its owner, a default channel and a token with every scope", async () => {
    const input = appInput({ adminName: "Ann Owner" });
    const res = await createApp(t.db, input);

    expect(res.app.name).toBe(input.name);
    expect(res.admin).toMatchObject({ email: input.adminEmail, name: "Ann Owner" });
    const app = await t.db.app.findUniqueOrThrow({ where: { id: res.app.id } });
    expect(app.defaultAdminId).toBe(res.admin.id);
    const admin = await t.db.admin.findUniqueOrThrow({ where: { id: res.admin.id } });
    expect(await verifyPassword(input.adminPassword, admin.passwordHash)).toBe(true);
    expect(await t.db.appAdmin.findMany({ where: { appId: res.app.id } })).toEqual([
      expect.objectContaining({ adminId: res.admin.id, role: "owner" }),
    ]);
    const channels = await t.db.channel.findMany({ where: { appId: res.app.id } });
    expect(channels.map((c) => [c.name, c.type])).toEqual([["General", "manual"]]);
    const auth = await verifyApiKey(t.db, res.token);
    expect(auth?.appId).toBe(res.app.id);
    expect([...(auth?.scopes ?? [])].sort()).toEqual([...SCOPES].sort());
  });

  it("names the owner after the email when no name is given, and lowercases the email", async () => {
    const local = `Mixed.Case-${uniq()}`;
    const res = await createApp(t.db, appInput({ adminEmail: `  ${local}@Example.COM ` }));
    expect(res.admin.email).toBe(`${local.toLowerCase()}@example.com`);
    expect(res.admin.name).toBe(local.toLowerCase());
  });

  it("reuses an existing admin whose password matches, and refuses one whose password does not", async () => {
    const owner = appInput();
    const first = await createApp(t.db, owner);
    const second = await createApp(
      t.db,
      appInput({ adminEmail: owner.adminEmail, adminPassword: owner.adminPassword }),
    );
    expect(second.admin.id).toBe(first.admin.id);
    expect(await t.db.appAdmin.count({ where: { adminId: first.admin.id, role: "owner" } })).toBe(2);

    const appsBefore = await t.db.app.count();
    const err = await createApp(t.db, appInput({ adminEmail: owner.adminEmail })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/already exists and the password given is not theirs/);
    expect(await t.db.app.count()).toBe(appsBefore);
  });

  it.each([
    [{ name: "  " }, "name", /name must not be empty/],
    [{ name: "x".repeat(256) }, "name", /at most 255/],
    [{ adminEmail: "not-an-email" }, "admin_email", /not a valid email/],
    [{ adminPassword: "short" }, "admin_password", /at least 8 characters/],
    [{ adminName: "y".repeat(256) }, "admin_name", /at most 255/],
  ] as const)("refuses bad input %j", async (over, field, message) => {
    const appsBefore = await t.db.app.count();
    const err = await createApp(t.db, appInput(over)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe(field);
    expect((err as InputError).message).toMatch(message);
    expect(await t.db.app.count()).toBe(appsBefore);
  });
});
