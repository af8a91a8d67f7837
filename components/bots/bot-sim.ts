import { askInputOf, nameSteps, placeSteps, type AskInput, type Step } from "@/lib/bots/steps";
import { answerOf, RETRY } from "@/lib/bots/answers";

/**
 * The editor's test mode: a bot run over steps in the browser, replayed from what the visitor did. It follows
 * lib/conversations/bot-run.ts (walk, botSees) step for step, with the same `placeSteps`, so a branch goes on where
 * the server's would; what the server does to the conversation (tags, assignment, the note) shows as events.
 */

/** What the visitor did: clicked a quick reply, or typed something. */
export type SimInput = { button: number } | { text: string };

export type SimLine =
  | { kind: "bot"; text: string; step: string }
  | { kind: "visitor"; text: string }
  /** What the bot does out of the visitor's sight. */
  | { kind: "event"; text: string };

export type SimWait =
  { step: string; type: "buttons"; labels: string[] } | { step: string; type: "ask"; input: AskInput };

export type SimEnd = "handed_over" | "closed";

export interface Sim {
  lines: SimLine[];
  /** The step waiting for the visitor; null once the run ended (or could not start). */
  wait: SimWait | null;
  end: SimEnd | null;
  answers: Record<string, string>;
  /** Why the steps cannot run (a repeated ID, too deep…), as the server would refuse them. */
  problem: string | null;
}

/** How events name operators and channels (by ID, as the steps hold them). */
export interface SimNames {
  operator: (id: string) => string;
  channel: (id: string) => string;
}

const BY_ID: SimNames = { operator: (id) => `operator ${id}`, channel: (id) => `channel ${id}` };

export const END_LINE: Record<SimEnd, string> = {
  handed_over: "Handed over to the team",
  closed: "Closed",
};

/** The run after the visitor's `inputs` (inputs after its end are ignored). */
export function runSim(steps: Step[], inputs: readonly SimInput[], names: SimNames = BY_ID): Sim {
  const sim: Sim = { lines: [], wait: null, end: null, answers: {}, problem: null };
  if (!steps.length) return { ...sim, problem: "a bot needs at least one step" };
  const named = nameSteps(steps);
  if ("error" in named) return { ...sim, problem: named.error };
  const placed = placeSteps(named.steps);
  const say = (text: string, step: string) => sim.lines.push({ kind: "bot", text, step });
  const event = (text: string) => sim.lines.push({ kind: "event", text });

  const finish = (end: SimEnd) => {
    sim.wait = null;
    sim.end = end;
    const answered = Object.entries(sim.answers);
    if (end === "handed_over" && answered.length)
      event(`Note for the team: ${answered.map(([k, v]) => `${k}: ${v}`).join(" · ")}`);
  };

  const walk = (from: string | null) => {
    let at = from;
    while (at !== null) {
      const here = placed.get(at);
      if (!here) break;
      const s = here.step;
      switch (s.type) {
        case "text":
          say(s.body, s.id);
          break;
        case "buttons":
          say(s.body, s.id);
          sim.wait = { step: s.id, type: "buttons", labels: s.buttons.map((b) => b.label) };
          return;
        case "ask":
          say(s.body, s.id);
          sim.wait = { step: s.id, type: "ask", input: askInputOf(s.prop) };
          return;
        case "tag":
          event(`Tags the ${s.target === "user" ? "user" : "conversation"} “${s.tag}”`);
          break;
        case "assign":
          if (s.admin !== undefined) event(`Assigns the conversation to ${names.operator(String(s.admin))}`);
          else if (s.channel !== undefined)
            event(`Puts the conversation in the ${names.channel(String(s.channel))} channel`);
          break;
        case "handover":
          if (s.body) say(s.body, s.id);
          return finish("handed_over");
        case "close":
          if (s.body) say(s.body, s.id);
          return finish("closed");
      }
      at = here.next;
    }
    finish("handed_over");
  };

  const sees = (input: SimInput) => {
    const here = sim.wait && placed.get(sim.wait.step);
    if (!here) return;
    const s = here.step;
    if (s.type === "buttons") {
      const typed = "text" in input ? input.text.trim().toLowerCase() : null;
      const branch =
        "button" in input ? input.button : s.buttons.findIndex((b) => b.label.trim().toLowerCase() === typed);
      const chosen = s.buttons[branch];
      sim.lines.push({ kind: "visitor", text: "text" in input ? input.text : (chosen?.label ?? "") });
      if (!chosen) return say(s.body, s.id);
      sim.wait = null;
      return walk(chosen.steps[0]?.id ?? here.next);
    }
    if (s.type === "ask" && "text" in input) {
      sim.lines.push({ kind: "visitor", text: input.text });
      const value = answerOf(s.prop, input.text);
      if (value === null) return say(RETRY[askInputOf(s.prop)], s.id);
      sim.answers[s.prop] = value;
      sim.wait = null;
      return walk(here.next);
    }
  };

  walk(named.steps[0]?.id ?? null);
  for (const input of inputs) {
    if (sim.end) break;
    sees(input);
  }
  return sim;
}
