import { describe, expect } from "vitest";
import { serverUrl } from "../db/testing";
import { sqlOf, type Queryable } from "../db/sql";
import { it } from "../testing/fixture";
import { makeUser } from "../testing/factories";
import { withEvents } from "./append";

/**
 * Two transactions that lock the same two rows in opposite orders: PostgreSQL rolls one back (after its
 * deadlock_timeout) and withEvents runs it again. Only a real PostgreSQL server runs them concurrently.
 */
describe.runIf(serverUrl())("withEvents on PostgreSQL", () => {
  for (const through of ["prisma", "driver"] as const) {
    it(`runs a transaction rolled back on a deadlock again (${through})`, async ({ server, app }) => {
      const rows = [(await makeUser(server.db, app.app.id)).id, (await makeUser(server.db, app.app.id)).id];
      let arrived = 0;
      let release = () => undefined as void;
      const bothHoldOne = new Promise<void>((r) => (release = r));
      const runs = [0, 0];
      const body = (i: number) => async (tx: Queryable) => {
        runs[i]!++;
        const [first, second] = i === 0 ? rows : [...rows].reverse();
        await tx.$executeRaw`UPDATE users SET updated = now() WHERE id = ${first}`;
        // The first runs wait for each other, so that each holds one row and asks for the other's.
        if (runs[i] === 1 && ++arrived === 2) release();
        if (runs[i] === 1) await bothHoldOne;
        await tx.$executeRaw`UPDATE users SET updated = now() WHERE id = ${second}`;
        return runs[i]!;
      };
      const run = (i: number) =>
        through === "prisma" ? withEvents(server.db, body(i)) : withEvents(sqlOf(server.db), body(i));
      const done = await Promise.all([run(0), run(1)]);
      // One committed on its first run; the deadlock's victim on a later one (its second, unless a loaded machine
      // let it deadlock again before the survivor woke: withEvents allows three runs).
      const [survivor, victim] = done.sort();
      expect(survivor).toBe(1);
      expect(victim).toBeGreaterThanOrEqual(2);
      expect(runs.reduce((a, b) => a + b)).toBe(1 + victim);
    });
  }
});
