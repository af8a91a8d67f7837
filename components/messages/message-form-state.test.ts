import { describe, expect, test } from "vitest";
import type { Message, MessageWrite } from "@/lib/client/messages-types";
import type { FilterCondition } from "@/lib/leads/filter-grammar";
import {
  contentSchemas,
  frequencySchema,
  goalSchema,
  scheduleSchema,
  triggerSchema,
} from "@/lib/messages/schemas";
import { answeredBy, formErrors } from "./message-form-errors";
import { newForm, toForm, toWrite, type MessageForm } from "./message-form-state";
import { lift, rate, triggerSummary } from "./message-format";

/** A message as the API answers it, from what the editor wrote. */
function asRead(w: MessageWrite): Message {
  const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
  return {
    id: 7,
    app: 1,
    name: w.name,
    kind: w.kind,
    status: w.status,
    content: json(w.content),
    trigger: json(w.trigger),
    audience: w.audience,
    timeout: w.timeout,
    frequency: json(w.frequency),
    schedule: json(w.schedule),
    goal: json(w.goal),
    control_percent: w.control_percent,
    created: 1,
    updated: 1,
    figures: { sent: 0, read: 0, clicked: 0, replied: 0, unsubscribed: 0, goal: 0 },
  };
}

const known: FilterCondition = { property_name: "$email", type: "known", value: {} };
const gold: FilterCondition = { property_name: "tier", type: "str_eq", value: { value: "gold" } };
const recent: FilterCondition = { property_name: "$last_seen", type: "daysless", value: { value: 7 } };
/** What the builder adds: no value yet. */
const open: FilterCondition = { property_name: "$email", type: "str_contains", value: {} };

function written(f: MessageForm): MessageWrite {
  const w = toWrite(f);
  if (!w.ok) throw new Error(JSON.stringify(w.errors));
  return w.body;
}

describe("the message editor's state", () => {
  test("a chat message is written in the API's shapes and read back as it was", () => {
    const f: MessageForm = {
      ...newForm("12"),
      name: "Welcome",
      body: "Hi! Can I help?",
      url: "https://shop.test/pricing*",
      timeout: "30",
      again: true,
      days: "7",
      controlPercent: "10",
      goal: true,
      goalEvent: "paid",
      goalHours: "48",
      goalStop: true,
      officeHours: true,
      window: true,
      windowFrom: "09:00",
      windowTo: "17:30",
      audience: { type: "and", filters: [known, { type: "or", filters: [gold, recent] }] },
    };
    const w = written(f);
    expect(w).toMatchObject({
      kind: "chat",
      content: { sender: "12", body: "Hi! Can I help?" },
      trigger: { event: "$page_view", url: "https://shop.test/pricing*" },
      timeout: 30,
      frequency: { type: "again", days: 7 },
      schedule: { office_hours: true, window: { from: "09:00", to: "17:30" } },
      goal: { event: "paid", within_hours: 48, stop: true },
      control_percent: 10,
      audience: { type: "and", filters: [known, { type: "or", filters: [gold, recent] }] },
    });
    // What the server will parse it with accepts it.
    expect(contentSchemas.chat.safeParse(w.content).success).toBe(true);
    for (const [schema, v] of [
      [triggerSchema, w.trigger],
      [frequencySchema, w.frequency],
      [scheduleSchema, w.schedule],
      [goalSchema, w.goal],
    ] as const)
      expect(schema.safeParse(v).success).toBe(true);
    expect(toForm(asRead(w))).toEqual(f);
  });

  test("a pop-up with a link button and an email field; an email without a sender", () => {
    const popup = written({
      ...newForm("3"),
      name: "Offer",
      kind: "popup",
      title: "10% off",
      body: "Today only",
      button: true,
      buttonLabel: "Shop",
      buttonUrl: " https://shop.test/ ",
      emailField: true,
      event: "signed_up",
      url: "ignored: not a page view",
    });
    expect(popup.content).toEqual({
      title: "10% off",
      body: "Today only",
      button: { label: "Shop", action: "link", url: "https://shop.test/" },
      email_field: true,
    });
    expect(popup.trigger).toEqual({ event: "signed_up" });
    expect(popup.schedule).toBeNull();
    expect(popup.goal).toBeNull();
    expect(popup.frequency).toEqual({ type: "once" });
    expect(toForm(asRead(popup))).toMatchObject({
      kind: "popup",
      button: true,
      buttonLabel: "Shop",
      sender: "",
    });

    const email = written({ ...newForm(""), name: "News", kind: "email", subject: "Hello", body: "Text" });
    expect(email.content).toEqual({ subject: "Hello", body: "Text" });
    expect(contentSchemas.email.safeParse(email.content).success).toBe(true);
  });

  test("no condition is everyone; a bare list is an and group; an empty group read back is everyone", () => {
    const f = { ...newForm("1"), body: "Hi" };
    expect(written(f).audience).toBeNull();
    const m = asRead(written(f));
    expect(toForm({ ...m, audience: [known] }).audience).toEqual({ type: "and", filters: [known] });
    expect(toForm({ ...m, audience: { type: "or", filters: [] } }).audience.filters).toEqual([]);
    expect(written(toForm({ ...m, audience: { type: "or", filters: [] } })).audience).toBeNull();
  });

  test("a chained trigger names its message; numbers and conditions without a value are refused before sending", () => {
    const chain = written({ ...newForm("1"), event: "$message_read", triggerMessage: "42" });
    expect(chain.trigger).toEqual({ event: "$message_read", message: "42" });
    // Time on page: kept with a page view, read back; staying on a page of another event is left out.
    const onPage = written({ ...newForm("1"), url: "https://a.test/*", stay: "page", timeout: "30" });
    expect(onPage.trigger).toEqual({ event: "$page_view", url: "https://a.test/*", stay: "page" });
    expect(toForm(asRead(onPage)).stay).toBe("page");
    expect(written({ ...newForm("1"), event: "$session_start", stay: "page" }).trigger).toEqual({
      event: "$session_start",
    });
    expect(written({ ...newForm("1"), event: "$session_start", stay: "site" }).trigger).toEqual({
      event: "$session_start",
      stay: "site",
    });
    const bad = toWrite({
      ...newForm(""),
      timeout: "soon",
      again: true,
      days: "-1",
      audience: { type: "and", filters: [known, { type: "or", filters: [gold, open] }] },
      controlPercent: "5.5",
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.errors).sort()).toEqual([
      "audience",
      "content.sender",
      "control_percent",
      "frequency.days",
      "timeout",
    ]);
    expect(bad.errors.audience).toMatch(/give every condition a value/);
  });

  test("the API's error fields go to their controls; a loop is kept apart; unknown keys are left over", () => {
    const e = formErrors({
      "content.body": "must not be empty",
      "content.button.url": "a link button needs its url",
      "schedule.window.from": "must be a time HH:MM",
      "goal.within_hours": "too small",
      "audience.filters.0.type": "unknown type",
      trigger:
        'this message triggers itself within 30 seconds: "A" (1) → "A" (1); pass confirm_loop=true to keep it',
      surprise: "what is this",
    });
    expect(e.at).toEqual({
      body: "must not be empty",
      buttonUrl: "a link button needs its url",
      window: "must be a time HH:MM",
      goalHours: "too small",
      audience: "unknown type",
    });
    expect(e.loop).toContain("triggers itself");
    expect(e.rest).toEqual([["surprise", "what is this"]]);
    expect(formErrors({ trigger: "is required" }).at.event).toBe("is required");
    // An edited control's error is answered until the next save; the others stay.
    const fields = { "content.body": "must not be empty", "schedule.window": "must not start and end alike" };
    expect(formErrors(fields, new Set(answeredBy({ body: "Hi" }))).at).toEqual({
      window: "must not start and end alike",
    });
    expect(formErrors(fields, new Set(answeredBy({ windowTo: "10:00" }))).at).toEqual({
      body: "must not be empty",
    });
  });
});

describe("the list's formats", () => {
  test("rates, lift and the trigger summary", () => {
    expect(rate(1, 3)).toBe("33.3%");
    expect(rate(0, 0)).toBe("—");
    expect(lift(null)).toBe("—");
    expect(lift(3.5)).toBe("+3.5 pp");
    expect(lift(-2)).toBe("−2 pp");
    expect(triggerSummary({ event: "$page_view", url: "https://a.test/*" })).toEqual({
      event: "$page_view",
      url: "https://a.test/*",
    });
    expect(triggerSummary({ event: "$message_read", message: 4 })).toEqual({
      event: "$message_read",
      message: "4",
    });
    expect(triggerSummary({ event: "$session_start", stay: "site" })).toEqual({
      event: "$session_start",
      stay: "site",
    });
    expect(triggerSummary({})).toBeNull();
  });
});
