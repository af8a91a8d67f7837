import { z } from "zod";

/**
 * A bot's steps: a tree, run from the first step down. A `buttons` step branches: each button has steps of its
 * own, and when a branch's steps end the run goes on after the `buttons` step (branches can meet again). A run
 * that reaches the end of the tree hands over, so no conversation is left with a bot that has nothing to say.
 * Browser-safe (zod only): the panel's editor and the runtime (lib/conversations/bot-run.ts) read the same shapes.
 */
export const BOT_KINDS = ["lead_bot", "routing_bot"] as const;
export type BotKind = (typeof BOT_KINDS)[number];
export const BOT_STATUSES = ["active", "paused", "archived"] as const;
export type BotStatus = (typeof BOT_STATUSES)[number];
/**
 * When a bot starts. The first four: on a visitor's first message, under that condition. by_message: a proactive
 * message of kind `bot` opens the conversation (lib/messages/send.ts). launcher: the visitor's "New conversation" in
 * the messenger opens it (lib/messenger/endpoints-visitor-bot.ts), as a `widget_bot`.
 */
export const BOT_WHEN = [
  "always",
  "no_operator",
  "office_hours",
  "outside_office_hours",
  "by_message",
  "launcher",
] as const;
export type BotWhen = (typeof BOT_WHEN)[number];
export const MAX_STEPS = 100;
export const MAX_DEPTH = 8;
export const MAX_BUTTONS = 6;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });
const stepId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, { error: "must be 1 to 40 letters, digits, _ or -" })
  .optional();

/** What an `ask` step sets: a system prop the messenger asks for with the right field, or a custom prop. */
export const propName = z.string().regex(/^(\$email|\$phone|\$name|[A-Za-z_][A-Za-z0-9_]{0,63})$/, {
  error: "must be $email, $phone, $name or a custom property name (letters, digits, _)",
});
export type AskInput = "email" | "phone" | "text";
export const askInputOf = (prop: string): AskInput =>
  prop === "$email" ? "email" : prop === "$phone" ? "phone" : "text";

export type Step =
  | { id?: string; type: "text"; body: string }
  | { id?: string; type: "buttons"; body: string; buttons: { label: string; steps: Step[] }[] }
  | { id?: string; type: "ask"; body: string; prop: string }
  | { id?: string; type: "tag"; target: "user" | "conversation"; tag: string }
  | { id?: string; type: "assign"; admin?: bigint | number; channel?: bigint | number }
  | { id?: string; type: "handover"; body?: string }
  | { id?: string; type: "close"; body?: string };
export type StepType = Step["type"];

const adminRef = z.coerce.bigint({ error: "must be an operator ID" });
const channelRef = z.coerce.bigint({ error: "must be a channel ID" });

export const stepSchema: z.ZodType<Step> = z.lazy(() =>
  z.discriminatedUnion(
    "type",
    [
      z.strictObject({ id: stepId, type: z.literal("text"), body: text(5000) }),
      z.strictObject({
        id: stepId,
        type: z.literal("buttons"),
        body: text(5000),
        buttons: z
          .array(z.strictObject({ label: text(60), steps: z.array(stepSchema) }))
          .min(1, { error: "needs at least one button" })
          .max(MAX_BUTTONS, { error: `at most ${MAX_BUTTONS} buttons` }),
      }),
      z.strictObject({ id: stepId, type: z.literal("ask"), body: text(5000), prop: propName }),
      z.strictObject({
        id: stepId,
        type: z.literal("tag"),
        target: z.enum(["user", "conversation"]),
        tag: text(255),
      }),
      z
        .strictObject({
          id: stepId,
          type: z.literal("assign"),
          admin: adminRef.optional(),
          channel: channelRef.optional(),
        })
        .refine((s) => (s.admin === undefined) !== (s.channel === undefined), {
          error: "names an operator (admin) or a channel, one of them",
        }),
      z.strictObject({ id: stepId, type: z.literal("handover"), body: text(5000).optional() }),
      z.strictObject({ id: stepId, type: z.literal("close"), body: text(5000).optional() }),
    ],
    { error: "must be a step: text, buttons, ask, tag, assign, handover or close" },
  ),
);
export const stepsSchema = z.array(stepSchema).min(1, { error: "a bot needs at least one step" });

export const startSchema = z.strictObject({ when: z.enum(BOT_WHEN) });
export type BotStart = z.infer<typeof startSchema>;

/** Where a step is: its own, and what runs after it when it does not branch or end. */
export interface Placed {
  step: Step & { id: string };
  next: string | null;
}

/** Every step by its ID (each given one by nameSteps). */
export function placeSteps(steps: Step[]): Map<string, Placed> {
  const out = new Map<string, Placed>();
  const walk = (list: Step[], after: string | null) =>
    list.forEach((s, i) => {
      const next = list[i + 1]?.id ?? after;
      out.set(s.id!, { step: s as Step & { id: string }, next });
      if (s.type === "buttons") for (const b of s.buttons) walk(b.steps, next);
    });
  walk(steps, null);
  return out;
}

/**
 * The tree with every step named (kept IDs stay, others get the first free `sN`), or the reason it cannot run:
 * a repeated ID, too many steps, too deep.
 */
export function nameSteps(steps: Step[]): { steps: Step[] } | { error: string; path: string } {
  const taken = new Set<string>();
  let count = 0;
  let problem: { error: string; path: string } | undefined;
  const seen = (list: Step[], path: string, depth: number) =>
    list.forEach((s, i) => {
      count++;
      const at = `${path}.${i}`;
      if (depth > MAX_DEPTH) problem ??= { error: `steps nest at most ${MAX_DEPTH} deep`, path: at };
      if (s.id !== undefined) {
        if (taken.has(s.id)) problem ??= { error: `the step ID "${s.id}" is used twice`, path: `${at}.id` };
        taken.add(s.id);
      }
      if (s.type === "buttons")
        s.buttons.forEach((b, j) => seen(b.steps, `${at}.buttons.${j}.steps`, depth + 1));
    });
  seen(steps, "steps", 1);
  if (count > MAX_STEPS) problem ??= { error: `a bot has at most ${MAX_STEPS} steps`, path: "steps" };
  if (problem) return problem;
  let n = 0;
  const fresh = () => {
    while (taken.has(`s${++n}`));
    taken.add(`s${n}`);
    return `s${n}`;
  };
  const name = (list: Step[]): Step[] =>
    list.map((s) => {
      const id = s.id ?? fresh();
      return s.type === "buttons"
        ? { ...s, id, buttons: s.buttons.map((b) => ({ ...b, steps: name(b.steps) })) }
        : { ...s, id };
    });
  return { steps: name(steps) };
}

/** Every step of the tree, depth first. */
export function allSteps(steps: Step[]): Step[] {
  return steps.flatMap((s) =>
    s.type === "buttons" ? [s, ...s.buttons.flatMap((b) => allSteps(b.steps))] : [s],
  );
}

/** A bot as a conversation runs it (lib/bots/start.ts picks it, lib/conversations/bot-run.ts runs it). */
export interface BotToRun {
  id: bigint;
  kind: BotKind;
  senderId: bigint | null;
  steps: Step[];
}
