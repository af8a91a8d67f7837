import { describe, expect, it } from "vitest";
import { openDb } from "../db/client";
import { sqlOf } from "../db/sql";
import { ApiError, isDatabaseUnreachable, unavailable } from "./errors";

/** The errors themselves, as each layer raises them, from a port on loopback where nothing listens. */
describe("isDatabaseUnreachable", () => {
  it("knows the driver's, Prisma's and the driver adapter's forms of an unreachable database", async () => {
    const h = await openDb("postgresql://postgres@127.0.0.1:1/none");
    try {
      const seen = await Promise.all([
        sqlOf(h.db).$queryRaw`SELECT 1`.catch((e: unknown) => e),
        sqlOf(h.db)
          .transaction((tx) => tx.$queryRaw`SELECT 1`)
          .catch((e: unknown) => e),
        h.db.$queryRaw`SELECT 1`.catch((e: unknown) => e),
        h.db.user.findFirst().catch((e: unknown) => e),
        h.db.$transaction((tx) => tx.user.count()).catch((e: unknown) => e),
      ]);
      for (const e of seen) expect(isDatabaseUnreachable(e), String(e)).toBe(true);
    } finally {
      await h.close();
    }
  });

  it("knows a server shutting down (SQLSTATE 57P01, class 08) and a dropped connection", () => {
    const pgError = (code: string) => Object.assign(new Error("terminating connection"), { code });
    expect(isDatabaseUnreachable(pgError("57P01"))).toBe(true);
    expect(isDatabaseUnreachable(pgError("57P03"))).toBe(true);
    expect(isDatabaseUnreachable(pgError("08006"))).toBe(true);
    expect(isDatabaseUnreachable(new Error("Connection terminated unexpectedly"))).toBe(true);
    const wrapped = {
      code: "P2010",
      meta: { driverAdapterError: { cause: { kind: "postgres", code: "57P01" } } },
    };
    expect(isDatabaseUnreachable(wrapped)).toBe(true);
  });

  it("leaves other failures alone", () => {
    expect(isDatabaseUnreachable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnreachable(Object.assign(new Error("timeout"), { code: "57014" }))).toBe(false);
    expect(isDatabaseUnreachable(new Error("Connection refused by the receiver"))).toBe(false);
    expect(isDatabaseUnreachable(undefined)).toBe(false);
  });

  it("is answered 503 with Retry-After", () => {
    const e = unavailable();
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.errorName, e.headers?.["Retry-After"]]).toEqual([503, "ServiceUnavailable", "5"]);
  });
});
