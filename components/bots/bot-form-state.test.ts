import { describe, expect, test } from "vitest";
import type { Bot, BotTemplate, Step } from "@/lib/client/bots-types";
import { botErrors } from "./bot-form-errors";
import { updateStep } from "./tree-ops";
import { scratchForm, stepsOf, templateForm, toForm, toWrite, type BotForm } from "./bot-form-state";

const steps: Step[] = [
  { id: "hello", type: "text", body: "Hi" },
  {
    id: "reach",
    type: "buttons",
    body: "Email you?",
    buttons: [
      { label: "Yes", steps: [{ id: "route", type: "assign", admin: 12 }] },
      { label: "No", steps: [{ id: "bye", type: "close" }] },
    ],
  },
];

const bot = (over: Partial<Bot> = {}): Bot => ({
  id: 3,
  app: 1,
  name: "Night shift",
  kind: "lead_bot",
  status: "paused",
  start: { when: "outside_office_hours" },
  audience: null,
  sender: 9,
  steps,
  created: 1,
  updated: 1,
  figures: { started: 0, running: 0, handed_over: 0, closed: 0, taken_over: 0 },
  ...over,
});

function written(f: BotForm) {
  const w = toWrite(f);
  if (!w.ok) throw new Error(JSON.stringify(w.errors));
  return w.body;
}

describe("the form from the API and back", () => {
  test("a bot's fields, its start rule, sender and steps", () => {
    const f = toForm(bot())!;
    expect(f).toMatchObject({
      name: "Night shift",
      when: "outside_office_hours",
      sender: "9",
      status: "paused",
    });
    expect(toForm(bot({ sender: null }))?.sender).toBe("0");
    // The closing message typed and cleared again.
    const w = written({
      ...f,
      steps: updateStep(f.steps, [1, "buttons", 1, "steps", 0], (s) => ({ ...s, body: " " })),
    });
    expect(w).toMatchObject({ start: { when: "outside_office_hours" }, audience: null, sender: "9" });
    // An empty closing message is no message; IDs read back as bigints are sent as numbers.
    expect(JSON.parse(JSON.stringify(w.steps))).toEqual([
      steps[0],
      {
        ...steps[1],
        buttons: [
          { label: "Yes", steps: [{ id: "route", type: "assign", admin: 12 }] },
          { label: "No", steps: [{ id: "bye", type: "close" }] },
        ],
      },
    ]);
  });

  test("steps that are no steps are not edited", () => {
    expect(toForm(bot({ steps: [{ type: "wave" }] }))).toBeNull();
    expect(stepsOf("nope")).toBeNull();
  });

  test("a template gives its name, kind, start and steps; scratch starts with one empty message", () => {
    const t: BotTemplate = {
      key: "routing_bot",
      name: "Routing bot",
      description: "",
      kind: "routing_bot",
      start: { when: "always" },
      steps,
    };
    expect(templateForm(t)).toMatchObject({
      name: "Routing bot",
      kind: "routing_bot",
      when: "always",
      sender: "0",
    });
    expect(scratchForm().steps).toEqual([{ id: "s1", type: "text", body: "" }]);
  });

  test("an audience is sent when it has a condition, refused when one has no value", () => {
    const f = scratchForm();
    const known = { property_name: "$email", type: "known" as const, value: {} };
    expect(written({ ...f, audience: { type: "and", filters: [known] } }).audience).toEqual({
      type: "and",
      filters: [known],
    });
    const open = { property_name: "$email", type: "str_contains" as const, value: {} };
    const w = toWrite({ ...f, audience: { type: "or", filters: [known, open] } });
    expect(w.ok ? null : Object.keys(w.errors)).toEqual(["audience"]);
    expect(toForm(bot({ audience: [known] }))?.audience).toEqual({ type: "and", filters: [known] });
  });
});

describe("the server's errors in place", () => {
  test("a step's error follows its step, by the steps as sent", () => {
    const fields = {
      "steps.1.buttons.0.steps.0.admin": "must be an operator ID",
      "steps.1.buttons.1.label": "must not be empty",
      name: "must not be empty",
      "start.when": "must be one of…",
    };
    // The buttons step moved up since the save: its errors stay with it.
    const moved = [steps[1]!, steps[0]!];
    const e = botErrors(fields, steps, moved);
    expect(e.steps).toEqual({
      route: { assign: "must be an operator ID" },
      reach: { "button.1": "must not be empty" },
    });
    expect(e.at).toEqual({ name: "must not be empty", when: "must be one of…" });
    expect(e.rest).toEqual([]);
  });

  test("checks that name a step by ID; errors of the steps as a whole; what nothing shows", () => {
    const e = botErrors(
      { steps: 'step "route": operator 12 is not an operator of this app', other: "?" },
      steps,
      steps,
    );
    expect(e.steps).toEqual({ route: { assign: "operator 12 is not an operator of this app" } });
    expect(e.rest).toEqual([["other", "?"]]);
    // An assign step that names nothing: the picker shows it.
    expect(botErrors({ "steps.1.buttons.0.steps.0": "names an operator…" }, steps, steps).steps).toEqual({
      route: { assign: "names an operator…" },
    });
    expect(botErrors({ steps: "a bot needs at least one step" }, [], []).allSteps).toBe(
      "a bot needs at least one step",
    );
  });

  test("an edited step or field no longer shows its error; a deleted step's goes to the summary", () => {
    const fields = { "steps.0.body": "must not be empty", name: "must not be empty" };
    expect(botErrors(fields, steps, steps, new Set(["hello", "name"]))).toMatchObject({ steps: {}, at: {} });
    expect(botErrors(fields, steps, [steps[1]!]).rest).toEqual([["steps.0.body", "must not be empty"]]);
  });
});
