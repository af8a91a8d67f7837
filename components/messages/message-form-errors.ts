import type { MessageForm } from "./message-form-state";

/**
 * The API's `error_fields` (keyed `content.body`, `schedule.window.from`…) placed beside the editor's controls, and
 * forgotten for a control once it is edited.
 */

/** The editor's controls that show an error of their own. */
export type Control =
  | "name"
  | "kind"
  | "status"
  | "content"
  | "sender"
  | "title"
  | "subject"
  | "body"
  | "bot"
  | "buttonLabel"
  | "buttonUrl"
  | "event"
  | "url"
  | "triggerMessage"
  | "stay"
  | "timeout"
  | "days"
  | "audience"
  | "window"
  | "controlPercent"
  | "goalEvent"
  | "goalHours";

/** The API's `error_fields` keys and the control each belongs to; a key goes to its longest listed prefix. */
const OWNERS: Record<string, Control> = {
  name: "name",
  kind: "kind",
  status: "status",
  content: "content",
  "content.sender": "sender",
  "content.title": "title",
  "content.subject": "subject",
  "content.body": "body",
  "content.bot": "bot",
  "content.button": "buttonLabel",
  "content.button.url": "buttonUrl",
  trigger: "event",
  "trigger.url": "url",
  "trigger.message": "triggerMessage",
  "trigger.stay": "stay",
  timeout: "timeout",
  frequency: "days",
  audience: "audience",
  schedule: "window",
  control_percent: "controlPercent",
  goal: "goalEvent",
  "goal.within_hours": "goalHours",
};

function ownerOf(key: string): Control | null {
  for (let k = key; k; k = k.includes(".") ? k.slice(0, k.lastIndexOf(".")) : "") {
    const owner = OWNERS[k];
    if (owner) return owner;
  }
  return null;
}

/** The controls whose errors an edit of each form field answers (its error is hidden until the next save). */
const ANSWERS: Record<keyof MessageForm, Control[]> = {
  name: ["name"],
  kind: ["kind", "content"],
  status: ["status"],
  sender: ["sender"],
  title: ["title"],
  subject: ["subject"],
  body: ["body"],
  bot: ["bot"],
  button: ["buttonLabel", "buttonUrl"],
  buttonLabel: ["buttonLabel"],
  buttonAction: ["buttonUrl"],
  buttonUrl: ["buttonUrl"],
  emailField: ["content"],
  event: ["event", "url", "triggerMessage", "stay"],
  url: ["url"],
  triggerMessage: ["triggerMessage"],
  stay: ["stay"],
  timeout: ["timeout"],
  again: ["days"],
  days: ["days"],
  controlPercent: ["controlPercent"],
  goal: ["goalEvent", "goalHours"],
  goalEvent: ["goalEvent"],
  goalHours: ["goalHours"],
  goalStop: ["goalEvent"],
  officeHours: ["window"],
  window: ["window"],
  windowFrom: ["window"],
  windowTo: ["window"],
  audience: ["audience"],
};

export const answeredBy = (patch: Partial<MessageForm>): Control[] =>
  Object.entries(ANSWERS).flatMap(([field, controls]) => (field in patch ? controls : []));

export interface FormErrors {
  /** The first error of each control. */
  at: Partial<Record<Control, string>>;
  /** Errors no control shows. */
  rest: [string, string][];
  /** The server's refusal of a loop (on `trigger`), which "Save anyway" overrides. */
  loop: string | null;
}

/** The errors of a refused save, by control; `answered`: controls edited since, whose errors no longer hold. */
export function formErrors(
  fields: Record<string, string>,
  answered: ReadonlySet<Control> = new Set(),
): FormErrors {
  const out: FormErrors = { at: {}, rest: [], loop: null };
  for (const [key, text] of Object.entries(fields)) {
    if (key === "trigger" && text.includes("confirm_loop")) {
      out.loop = text;
      continue;
    }
    const owner = ownerOf(key);
    if (!owner) out.rest.push([key, text]);
    else if (!answered.has(owner)) out.at[owner] ??= text;
  }
  return out;
}
