import type { Ctx } from "../auth/context";
import { invalid } from "../domain/errors";
import { setUserProps, type SetPropsResult } from "../props/set-props";

/**
 * The system props a visitor may write about itself. The rest are the service's account of the visitor (sessions,
 * last seen, referrer, location) or its identity ($user_id, set only by a verified login): a visitor setting them
 * would forge what operators rely on. Nor `$avatar`: operators' browsers would load the visitor's URL whenever they
 * look at it, telling the visitor when and from where (a tracking pixel); the site's backend sets it (REST API).
 */
export const VISITOR_SYSTEM_PROPS: readonly string[] = ["$name", "$email", "$phone"];

const refusal = (key: string) =>
  key === "$avatar"
    ? "$avatar cannot be set by a visitor: operators' browsers would load its URL; set it from your server with the REST API"
    : `${key} cannot be set by a visitor (only ${VISITOR_SYSTEM_PROPS.join(", ")})`;

export interface IdentifyInput {
  userId: bigint;
  name?: string;
  email?: string;
  phone?: string;
  /** Where the messenger learnt it (its email prompt, a form): kept as `messenger.<source>` in props_sources. */
  source?: string;
  /** Custom props, set as they are (`update_or_create`). */
  props?: Record<string, unknown>;
  /** The spec's props operations `[{op, key, value}]`, applied after the fields above. */
  operations?: unknown[];
}

const keyOf = (raw: unknown): unknown =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as { key?: unknown }).key : undefined;

/** The visitor's fields as props operations; a system prop the visitor may not set refuses the whole request. */
export function visitorOperations(input: IdentifyInput): unknown[] {
  const ops: unknown[] = [];
  const set = (key: string, value: unknown) => ops.push({ op: "update_or_create", key, value });
  if (input.name !== undefined) set("$name", input.name);
  if (input.email !== undefined) set("$email", input.email);
  if (input.phone !== undefined) set("$phone", input.phone);
  for (const [key, value] of Object.entries(input.props ?? {})) {
    if (key.startsWith("$")) {
      throw invalid({ props: `${key}: custom props do not start with $; use name, email or phone` });
    }
    set(key, value);
  }
  for (const [i, raw] of (input.operations ?? []).entries()) {
    const key = keyOf(raw);
    if (typeof key === "string" && key.startsWith("$") && !VISITOR_SYSTEM_PROPS.includes(key)) {
      throw invalid({ [`operations[${i}]`]: refusal(key) });
    }
    ops.push(raw);
  }
  return ops;
}

/**
 * The visitor tells who it is. Through the props service, so that the lead rule, props_sources and the operators'
 * real-time message follow as for any props write.
 */
export async function identifyVisitor(ctx: Ctx, input: IdentifyInput): Promise<SetPropsResult> {
  const operations = visitorOperations(input);
  return setUserProps(ctx, {
    user: { id: String(input.userId) },
    operations,
    source: { type: input.source ? `messenger.${input.source}` : "messenger" },
  });
}
