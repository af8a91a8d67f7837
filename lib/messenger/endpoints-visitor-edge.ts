import type { CorsPolicy } from "../api/cors";
import { CLIENT_IP_HEADER } from "../api/headers";
import { getRuntime } from "../server/runtime";
import { isOriginAllowed } from "./identity";
import { single } from "../api/params";
import { throttled } from "../domain/errors";
import type { ApiRequest } from "../api/api-request";

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

/** What each of the messenger's budgets (lib/server/rate-limit.ts) covers, as a refusal tells it. */
const TOO_MANY = {
  writes: "Too many messages from this visitor or address: wait a little.",
  typing: "Too many typing updates from this visitor or address: wait a little.",
  track: "Too many events from this visitor or address: wait a little.",
} as const;

export type MessengerBudget = keyof typeof TOO_MANY;

/**
 * The messenger's public requests draw from two budgets of their kind: the visitor's own (for boot, the device's)
 * and the client address's. Either one empty answers 429 with the longer wait. `writes`: boot, start, reply and
 * quick reply; `typing` and `track` have budgets of their own, so that neither crowds out the visitor's messages.
 */
export async function takeMessengerBudget(
  req: ApiRequest,
  who: string,
  budget: MessengerBudget = "writes",
): Promise<void> {
  const { visitor, address } = getRuntime().messenger[budget];
  const from = req.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  const [byWho, byAddress] = await Promise.all([
    visitor.take(`mv:${budget}:${who}`),
    address.take(`ma:${budget}:${from}`),
  ]);
  if (byWho.ok && byAddress.ok) return;
  throw throttled(TOO_MANY[budget], Math.max(byWho.retryAfter, byAddress.retryAfter));
}
