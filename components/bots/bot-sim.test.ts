import { describe, expect, test } from "vitest";
import type { Step } from "@/lib/bots/steps";
import { END_LINE, runSim, type Sim } from "./bot-sim";
import { RETRY } from "@/lib/bots/answers";

/** The lead bot template's steps (lib/bots/templates.ts). */
const lead: Step[] = [
  { id: "hello", type: "text", body: "Hi!" },
  {
    id: "reach",
    type: "buttons",
    body: "Can we email you?",
    buttons: [
      {
        label: "Yes, email me",
        steps: [
          { id: "email", type: "ask", body: "Your email?", prop: "$email" },
          { id: "company", type: "ask", body: "Your company?", prop: "company" },
        ],
      },
      { label: "No thanks", steps: [{ id: "later", type: "text", body: "Come back later." }] },
    ],
  },
  { id: "done", type: "handover", body: "Thanks!" },
];

const said = (sim: Sim) => sim.lines.map((l) => `${l.kind}: ${l.text}`);

describe("test mode runs the steps as the server does", () => {
  test("it says what comes before the first wait, and offers the buttons", () => {
    const sim = runSim(lead, []);
    expect(said(sim)).toEqual(["bot: Hi!", "bot: Can we email you?"]);
    expect(sim.wait).toEqual({ step: "reach", type: "buttons", labels: ["Yes, email me", "No thanks"] });
    expect(sim.end).toBeNull();
  });

  test("a branch's questions are checked, and the run goes on after the buttons step to hand over", () => {
    const sim = runSim(lead, [
      { button: 0 },
      { text: "not an address" },
      { text: "ann@example.test" },
      { text: " Fjord " },
    ]);
    expect(said(sim).slice(2)).toEqual([
      "visitor: Yes, email me",
      "bot: Your email?",
      "visitor: not an address",
      `bot: ${RETRY.email}`,
      "visitor: ann@example.test",
      "bot: Your company?",
      "visitor:  Fjord ",
      "bot: Thanks!",
      "event: Note for the team: $email: ann@example.test · company: Fjord",
    ]);
    expect(sim.answers).toEqual({ $email: "ann@example.test", company: "Fjord" });
    expect(sim.end).toBe("handed_over");
    expect(sim.wait).toBeNull();
  });

  test("a typed label takes its branch; other text asks again; nothing after the end counts", () => {
    const sim = runSim(lead, [{ text: "maybe" }, { text: "no THANKS" }, { text: "hello?" }]);
    expect(said(sim).slice(2)).toEqual([
      "visitor: maybe",
      "bot: Can we email you?",
      "visitor: no THANKS",
      "bot: Come back later.",
      "bot: Thanks!",
    ]);
    expect(sim.end).toBe("handed_over");
  });

  test("the end of the tree hands over; close closes; tags and assignments show as events", () => {
    const steps: Step[] = [
      { id: "a", type: "tag", target: "conversation", tag: "vip" },
      { id: "b", type: "assign", channel: 4 },
      { id: "c", type: "assign", admin: 7 },
    ];
    const names = { operator: (id: string) => `Ann (${id})`, channel: (id: string) => `Sales (${id})` };
    const sim = runSim(steps, [], names);
    expect(said(sim)).toEqual([
      "event: Tags the conversation “vip”",
      "event: Puts the conversation in the Sales (4) channel",
      "event: Assigns the conversation to Ann (7)",
    ]);
    expect(sim.end).toBe("handed_over");
    const closed = runSim(
      [
        { id: "x", type: "close" },
        { id: "y", type: "text", body: "never" },
      ],
      [],
    );
    expect(closed.lines).toEqual([]);
    expect(closed.end).toBe("closed");
    expect(END_LINE[closed.end!]).toBe("Closed");
  });

  test("an empty branch goes on after its buttons step; steps without IDs are named first", () => {
    const steps: Step[] = [
      { type: "buttons", body: "Pick", buttons: [{ label: "A", steps: [] }] },
      { type: "ask", body: "Phone?", prop: "$phone" },
    ];
    const sim = runSim(steps, [{ button: 0 }, { text: "12" }, { text: "+47 22 33 44 55" }]);
    expect(said(sim)).toEqual([
      "bot: Pick",
      "visitor: A",
      "bot: Phone?",
      "visitor: 12",
      `bot: ${RETRY.phone}`,
      "visitor: +47 22 33 44 55",
      "event: Note for the team: $phone: +47 22 33 44 55",
    ]);
    expect(sim.end).toBe("handed_over");
  });

  test("steps the server would refuse do not run", () => {
    expect(runSim([], []).problem).toMatch(/at least one step/);
    const twice = runSim(
      [
        { id: "a", type: "text", body: "1" },
        { id: "a", type: "text", body: "2" },
      ],
      [],
    );
    expect(twice.problem).toMatch(/used twice/);
    expect(twice.lines).toEqual([]);
  });
});
