import type { Step } from "@/lib/client/bots-types";
import { errorPlace, pathOfId, stepAt } from "./tree-ops";

/**
 * The API's `error_fields` placed beside the editor's controls: the bot's own fields, and each step's card (a key
 * `steps.1.buttons.0.steps.0.body` is looked up in the steps as they were sent, so the error stays with its step
 * when steps move afterwards). An error is forgotten once its control or step is edited.
 */

/** The bot's fields that show an error of their own. */
export type BotControl = "name" | "kind" | "status" | "when" | "sender" | "audience";

/** The API's keys and the control each belongs to; a key goes to its longest listed prefix. */
const OWNERS: Record<string, BotControl> = {
  name: "name",
  kind: "kind",
  status: "status",
  start: "when",
  sender: "sender",
  audience: "audience",
};

function ownerOf(key: string): BotControl | null {
  for (let k = key; k; k = k.includes(".") ? k.slice(0, k.lastIndexOf(".")) : "") {
    const owner = OWNERS[k];
    if (owner) return owner;
  }
  return null;
}

/**
 * A step's part that shows an error: "body", "prop", "tag", "target", "assign", "buttons" (the list of them),
 * "button.<i>" (a button's label), or "" for the step as a whole.
 */
export type StepField = string;

function stepField(rest: string): StepField {
  const [head, index] = rest.split(".");
  if (head === "body" || head === "prop" || head === "tag" || head === "target") return head;
  if (head === "admin" || head === "channel") return "assign";
  if (head === "buttons") return index !== undefined && /^\d+$/.test(index) ? `button.${index}` : "buttons";
  return "";
}

/** `steps: step "s3": operator 9 is not…` (the checks after the shape's) names its step by ID. */
const NAMED = /^step "([^"]+)":\s*(.*)$/s;

export interface BotErrors {
  at: Partial<Record<BotControl, string>>;
  /** By step ID, then by StepField. */
  steps: Record<string, Record<StepField, string>>;
  /** About the steps as a whole ("a bot needs at least one step"). */
  allSteps: string | null;
  /** Errors nothing shows in place. */
  rest: [string, string][];
}

/**
 * The errors of a refused save. `sent`: the steps the refused request carried; `current`: the editor's steps now
 * (a step deleted since shows its error nowhere but in the summary); `answered`: controls and step IDs edited
 * since, whose errors no longer hold.
 */
export function botErrors(
  fields: Record<string, string>,
  sent: Step[],
  current: Step[],
  answered: ReadonlySet<string> = new Set(),
): BotErrors {
  const out: BotErrors = { at: {}, steps: {}, allSteps: null, rest: [] };
  const atStep = (id: string | undefined, field: StepField, text: string) => {
    if (id === undefined || !pathOfId(current, id)) return false;
    if (!answered.has(id)) (out.steps[id] ??= {})[field] ??= text;
    return true;
  };
  for (const [key, text] of Object.entries(fields)) {
    const owner = ownerOf(key);
    if (owner) {
      if (!answered.has(owner)) out.at[owner] ??= text;
      continue;
    }
    if (key === "steps") {
      const named = NAMED.exec(text);
      if (
        named &&
        atStep(named[1], /operator|channel/.test(named[2] ?? "") ? "assign" : "", named[2] ?? text)
      )
        continue;
      if (!answered.has("steps")) out.allSteps ??= text;
      continue;
    }
    const place = errorPlace(sent, key);
    const step = place && stepAt(sent, place.path);
    // An assign step's error of its own (neither or both targets) is its picker's.
    const field = step?.type === "assign" && place?.field === "" ? "assign" : stepField(place?.field ?? "");
    if (step && atStep(step.id, field, text)) continue;
    out.rest.push([key, text]);
  }
  return out;
}
