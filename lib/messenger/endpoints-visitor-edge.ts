import type { CorsPolicy } from "../api/cors";
import { CLIENT_IP_HEADER } from "../api/headers";
import { getRuntime } from "../server/runtime";
import { isOriginAllowed } from "./identity";
import { single } from "../api/params";
import { throttled } from "../domain/errors";

// The HTTP edge of the visitor endpoints (endpoints-visitor*.ts): their CORS policy and their rate limits, which
// read the request and the runtime, not the domain.

/**
 * The messenger's endpoints answer the pages of the app's allowed origins (every origin when it lists none). The
 * app is the visitor's (from its token) or, for boot, the public key's. An answer with no app to go by (a refresh,
 * a token that failed) carries no app's data, only tokens the caller already held or an error the frame must
 * read to recover (a 401 tells it to refresh), so its origin is echoed: with no cookies involved, CORS protects
 * nothing more there.
 */
export const messengerCors: CorsPolicy = async (origin, { actor, input }) => {
  const db = getRuntime().db;
  const key = single(input.key);
  let settings: { allowedOrigins: string[] } | null;
  if (actor?.kind === "visitor") {
    settings = await db.messengerSettings.findUnique({
      where: { appId: actor.appId },
      select: { allowedOrigins: true },
    });
  } else if (typeof key === "string" && key !== "") {
    settings = await db.messengerSettings.findUnique({
      where: { publicKey: key },
      select: { allowedOrigins: true },
    });
  } else return true;
  return settings === null || isOriginAllowed(settings, origin);
};

/**
 * The messenger's public writes (boot, start, reply) draw from two budgets: the visitor's own (for boot, the
 * device's) and the client address's. Either one empty answers 429 with the longer wait.
 */
export async function takeMessengerBudget(req: Request, who: string): Promise<void> {
  const { messenger } = getRuntime();
  const address = req.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  const [byWho, byAddress] = await Promise.all([
    messenger.visitor.take(`mv:${who}`),
    messenger.address.take(`ma:${address}`),
  ]);
  if (byWho.ok && byAddress.ok) return;
  const wait = Math.max(byWho.retryAfter, byAddress.retryAfter);
  throw throttled("Too many messages from this visitor or address: wait a little.", wait);
}
