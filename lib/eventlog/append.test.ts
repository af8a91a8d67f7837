import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../db/generated/client";
import { createTestDb, type TestDb } from "../db/testing";
import { sqlOf } from "../db/sql";
import { makeApp, makeUser } from "../testing/factories";
import { changeWithEvents, type LogEvent } from "./append";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.close());

const version = async (id: bigint) =>
  (await sqlOf(t.db).$queryRaw<{ v: string }[]>`SELECT xmin::text AS v FROM users WHERE id = ${id}`)[0]!.v;

const rename = (id: bigint, name: string, v: string) =>
  Prisma.sql`UPDATE users SET name = ${name} WHERE id = ${id} AND xmin = ${v}::xid RETURNING id`;

const logged = (userId: bigint) =>
  t.db.eventLogEntry.findMany({
    where: { userId },
    select: { type: true, payload: true },
    orderBy: { id: "asc" },
  });

describe("changeWithEvents", () => {
  it("logs the events with the change it makes, and neither when the change matches no row", async () => {
    const { app } = await makeApp(t.db);
    const u = await makeUser(t.db, app.id);
    const event = (name: string): LogEvent => ({
      appId: app.id,
      userId: u.id,
      channel: `user_props_changed.${app.id}`,
      type: "user_props_changed",
      payload: { user: u.id, app: app.id, props: { $name: name } },
    });
    const read = await version(u.id);
    expect(await changeWithEvents(sqlOf(t.db), rename(u.id, "First", read), [event("First")])).toBe(true);
    // The row read before that write is gone: the same version no longer matches, nothing is written or logged.
    expect(await changeWithEvents(sqlOf(t.db), rename(u.id, "Stale", read), [event("Stale")])).toBe(false);
    expect(await changeWithEvents(sqlOf(t.db), rename(u.id, "Quiet", await version(u.id)), [])).toBe(true);
    expect(await changeWithEvents(sqlOf(t.db), rename(u.id, "Stale", read), [])).toBe(false);

    expect((await t.db.user.findUniqueOrThrow({ where: { id: u.id } })).name).toBe("Quiet");
    expect(await logged(u.id)).toEqual([
      {
        type: "user_props_changed",
        payload: { user: Number(u.id), app: Number(app.id), props: { $name: "First" } },
      },
    ]);
  });
});
