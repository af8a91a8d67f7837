import { audienceOf, audienceToWrite } from "@/components/leads/audience";
import { EMPTY_FILTER } from "@/lib/client/lead-filters";
import type { Bot, BotKind, BotStatus, BotTemplate, BotWhen, BotWrite, Step } from "@/lib/client/bots-types";
import { startSchema, stepsSchema } from "@/lib/bots/steps";
import type { FilterGroup } from "@/lib/leads/filter-grammar";

/**
 * The bot editor's state and its way to and from the API. What is read back is parsed with the server's schemas;
 * what is written is checked here only where the API could not say which part is wrong (an audience condition left
 * without a value, which the Leads builder would otherwise drop silently): the rest is the server's word.
 */

export interface BotForm {
  name: string;
  kind: BotKind;
  status: BotStatus;
  when: BotWhen;
  /** The operator the bot speaks as: their ID, "0" for the app. */
  sender: string;
  /** Leads filters; no condition: everyone. */
  audience: FilterGroup;
  /** Every step with an ID (the editor names new ones), so cards, errors and test runs can find them. */
  steps: Step[];
}

/** The steps of a bot or template as the editor holds them: parsed, IDs of assign steps as numbers (JSON's). */
export function stepsOf(json: unknown): Step[] | null {
  const parsed = stepsSchema.safeParse(json);
  if (!parsed.success) return null;
  const plain = (list: Step[]): Step[] =>
    list.map((s) => {
      if (s.type === "buttons")
        return { ...s, buttons: s.buttons.map((b) => ({ ...b, steps: plain(b.steps) })) };
      if (s.type !== "assign") return s;
      const { admin, channel, ...rest } = s;
      return {
        ...rest,
        ...(admin !== undefined ? { admin: Number(admin) } : {}),
        ...(channel !== undefined ? { channel: Number(channel) } : {}),
      };
    });
  return plain(parsed.data);
}

const whenOf = (start: unknown, kind: BotKind): BotWhen => {
  const s = startSchema.safeParse(start);
  return s.success ? s.data.when : kind === "lead_bot" ? "no_operator" : "always";
};

/** A new bot from nothing: one empty text step to begin with. */
export function scratchForm(): BotForm {
  return {
    name: "",
    kind: "lead_bot",
    status: "active",
    when: "no_operator",
    sender: "0",
    audience: EMPTY_FILTER,
    steps: [{ id: "s1", type: "text", body: "" }],
  };
}

/** A new bot from a template; null when its steps do not parse (never, from this server). */
export function templateForm(t: BotTemplate): BotForm | null {
  const steps = stepsOf(t.steps);
  if (!steps) return null;
  return { ...scratchForm(), name: t.name, kind: t.kind, when: whenOf(t.start, t.kind), steps };
}

/** A bot as the editor shows it; null when its steps do not parse (never, from this server). */
export function toForm(b: Bot): BotForm | null {
  const steps = stepsOf(b.steps);
  if (!steps) return null;
  return {
    name: b.name,
    kind: b.kind,
    status: b.status,
    when: whenOf(b.start, b.kind),
    sender: b.sender === null ? "0" : String(b.sender),
    audience: audienceOf(b.audience),
    steps,
  };
}

/** The steps as sent: a hand-over's or a close's empty message is no message. */
export function stepsToWrite(steps: Step[]): Step[] {
  return steps.map((s) => {
    if (s.type === "buttons")
      return { ...s, buttons: s.buttons.map((b) => ({ ...b, steps: stepsToWrite(b.steps) })) };
    if ((s.type === "handover" || s.type === "close") && !s.body?.trim()) {
      const { body: _none, ...rest } = s;
      return rest;
    }
    return s;
  });
}

export type WriteResult = { ok: true; body: BotWrite } | { ok: false; errors: Record<string, string> };

/** The API's body for the form, or the errors (keyed as the API keys them) of what cannot be sent. */
export function toWrite(f: BotForm): WriteResult {
  const audience = audienceToWrite(f.audience);
  if (!audience.ok) return { ok: false, errors: { audience: audience.error } };
  return {
    ok: true,
    body: {
      name: f.name,
      kind: f.kind,
      status: f.status,
      start: { when: f.when },
      audience: audience.audience,
      sender: f.sender,
      steps: stepsToWrite(f.steps),
    },
  };
}
