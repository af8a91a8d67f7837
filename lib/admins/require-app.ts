import type { Db } from "../db/client";
import { InputError } from "./input";

export async function requireApp(db: Pick<Db, "app">, appId: bigint): Promise<{ id: bigint; name: string }> {
  const app = await db.app.findUnique({ where: { id: appId }, select: { id: true, name: true } });
  if (!app) throw new InputError(`App ${appId} does not exist.`, "app");
  return app;
}
