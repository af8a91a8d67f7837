import { describe, expect, test } from "vitest";
import { TypingThrottle, type Clock } from "./typing";

/** A clock moved by hand: `advance` runs the timers that fall due, in their order. */
function manualClock() {
  let now = 1_000_000;
  let next = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    after: (ms, fn) => {
      timers.set(++next, { at: now + ms, fn });
      return next;
    },
    cancel: (h) => void timers.delete(h as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  };
  return { clock, advance, pending: () => timers.size };
}

function setup() {
  const sent: { at: number; body: string }[] = [];
  const c = manualClock();
  const t = new TypingThrottle((body) => sent.push({ at: c.clock.now(), body }), 3000, c.clock);
  return { sent, t, ...c };
}

/** Types `text` one character every `everyMs`. */
function typeOut(s: ReturnType<typeof setup>, text: string, everyMs: number) {
  for (let i = 1; i <= text.length; i++) {
    s.t.typed(text.slice(0, i));
    s.advance(everyMs);
  }
}

describe("TypingThrottle", () => {
  test("the first keystroke goes at once; the rest of the window waits for its end", () => {
    const s = setup();
    s.t.typed("H");
    expect(s.sent.map((x) => x.body)).toEqual(["H"]);
    s.advance(1000);
    s.t.typed("He");
    s.advance(1000);
    s.t.typed("Hel");
    expect(s.sent).toHaveLength(1);
    s.advance(1000);
    // The window's end: the latest text, once.
    expect(s.sent.map((x) => x.body)).toEqual(["H", "Hel"]);
    expect(s.sent[1]!.at - s.sent[0]!.at).toBe(3000);
  });

  test("continuous typing keeps reporting, one update per window, with the current text", () => {
    const s = setup();
    // 10 s of typing, a character every 200 ms.
    typeOut(s, "x".repeat(50), 200);
    const gaps = s.sent.slice(1).map((x, i) => x.at - s.sent[i]!.at);
    expect(s.sent.length).toBeGreaterThanOrEqual(4);
    for (const g of gaps) expect(g).toBe(3000);
    expect(s.sent.at(-1)!.body.length).toBeGreaterThan(40);
  });

  test("one keystroke alone sends once: no trailing update without more typing", () => {
    const s = setup();
    s.t.typed("H");
    s.advance(10_000);
    expect(s.sent.map((x) => x.body)).toEqual(["H"]);
    expect(s.pending()).toBe(0);
  });

  test("emptying the composer sends a stop at once and drops the pending update", () => {
    const s = setup();
    s.t.typed("H");
    s.advance(500);
    s.t.typed("Hi");
    s.t.typed("");
    expect(s.sent.map((x) => x.body)).toEqual(["H", ""]);
    s.advance(5000);
    expect(s.sent).toHaveLength(2);
    // Typing again is news at once.
    s.t.typed("B");
    expect(s.sent.map((x) => x.body)).toEqual(["H", "", "B"]);
  });

  test("a stop only after something was said; whitespace counts as empty", () => {
    const s = setup();
    s.t.typed("  ");
    s.t.cleared();
    expect(s.sent).toEqual([]);
  });

  test("after a send, no late update brings the indicator back", () => {
    const s = setup();
    s.t.typed("H");
    s.advance(1000);
    s.t.typed("Hello");
    s.t.sent();
    s.advance(5000);
    expect(s.sent.map((x) => x.body)).toEqual(["H"]);
    s.t.typed("N");
    expect(s.sent.map((x) => x.body)).toEqual(["H", "N"]);
  });
});
