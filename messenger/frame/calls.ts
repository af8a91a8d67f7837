import { messageInteraction } from "../queue";
import { ApiError } from "./api";
import type { App } from "./app";
import type { Messages } from "./context";
import type { TokenPair, Visitor } from "./types";

/** What of the controller the calls use. */
export type CallsApp = Pick<App, "api" | "visitor" | "reload" | "emit"> & {
  messages: Pick<Messages, "load">;
};

/**
 * The site's JS API calls the loader forwards (protocol "call"): auth(user_id, hash), identify(props or
 * operations), track(name, params), trackMessageInteraction(sending_id, "read" | "clicked"), connect's settings.
 * Each runs once the visitor is booted; a call with bad arguments throws, which the site sees as a warning.
 */
export async function runCall(app: CallsApp, method: string, args: unknown[]): Promise<void> {
  if (method === "auth") {
    const [userId, hash] = args;
    if (typeof userId !== "string" && typeof userId !== "number")
      throw new Error("auth: a user ID is required");
    let r: TokenPair & { visitor: Visitor };
    try {
      r = await app.api.call<TokenPair & { visitor: Visitor }>("POST", "/auth", {
        user_id: String(userId),
        ...(typeof hash === "string" ? { user_hash: hash } : {}),
      });
    } catch (err) {
      // A refusal (a bad hash, none where verification is on) is the site's to know, not only the console's: the
      // visitor stays anonymous and the site may log it or ask its server for a new hash.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500)
        app.emit("auth_refused", {
          user_id: String(userId),
          status: err.status,
          error: err.errorName,
          message: err.message,
        });
      throw err;
    }
    app.visitor = r.visitor;
    // New tokens: the socket reconnects with them (Api.onTokens), and the conversations are the user's now.
    app.api.setTokens(r);
    await app.reload();
  } else if (method === "identify") {
    app.visitor = await app.api.call<Visitor>("POST", "/identify", identifyBody(args[0]));
  } else if (method === "track") {
    const [name, params] = args;
    if (typeof name !== "string" || !name) throw new Error("track: an event name is required");
    await app.api.call("POST", "/track", {
      name,
      ...(params && typeof params === "object" ? { params } : {}),
    });
  } else if (method === "trackMessageInteraction") {
    const r = messageInteraction(args[0], args[1]);
    if ("refused" in r) throw new Error(`trackMessageInteraction: ${r.refused}`);
    await app.api.call("POST", `/messages/${r.send}/${r.action}`, r.action === "click" ? {} : undefined);
    // A clicked message leaves the visitor's list; the messenger stops showing it.
    if (r.action === "click") await app.messages.load();
  }
  // connect's settings: nothing of them is used by this version.
}

const FIELDS: Record<string, "name" | "email" | "phone"> = {
  name: "name",
  $name: "name",
  email: "email",
  $email: "email",
  phone: "phone",
  $phone: "phone",
};

/** identify([{op, key, value}…]) as operations; identify({…}) as known fields and custom props. */
function identifyBody(arg: unknown): Record<string, unknown> {
  if (Array.isArray(arg)) return { operations: arg };
  if (!arg || typeof arg !== "object") throw new Error("identify: properties or operations are required");
  const body: Record<string, unknown> = {};
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(arg)) {
    const field = FIELDS[k];
    if (field) body[field] = v;
    else props[k] = v;
  }
  if (Object.keys(props).length) body.props = props;
  return body;
}
