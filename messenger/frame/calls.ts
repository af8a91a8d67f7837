import type { App } from "./app";
import type { TokenPair, Visitor } from "./types";

/**
 * The site's JS API calls the loader forwards (protocol "call"): auth(user_id, hash), identify(props or
 * operations), track(name, params), connect's settings. Each runs once the visitor is booted.
 */
export async function runCall(app: App, method: string, args: unknown[]): Promise<void> {
  if (method === "auth") {
    const [userId, hash] = args;
    if (typeof userId !== "string" && typeof userId !== "number")
      throw new Error("auth: a user ID is required");
    const r = await app.api.call<TokenPair & { visitor: Visitor }>("POST", "/auth", {
      user_id: String(userId),
      ...(typeof hash === "string" ? { user_hash: hash } : {}),
    });
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
