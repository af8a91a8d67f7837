import { describe, expect, it } from "vitest";
import { parseInbound } from "./parse";
import { eml } from "./testing";

describe("quotes and signatures", () => {
  it("a 30 KB quoted thread leaves only the new lines (Gmail attribution wrapped over two lines)", async () => {
    const history = Array.from({ length: 420 }, (_, n) =>
      n % 50 === 0
        ? `> On Mon, Nov ${(n % 28) + 1}, 2026 at 9:15 AM Relay Support <app-1@mail.test> wrote:`
        : `>${n % 3 === 0 ? ">" : ""} Line ${n} of an older message in this thread, quoted again and again.`,
    );
    const body = [
      "Sounds good, ship it on Friday.",
      "",
      "Anna",
      "",
      "On Mon, Nov 30, 2026 at 9:15 AM Relay Support Team at Example Industries <",
      "app-1@mail.test> wrote:",
      "",
      ...history,
    ].join("\n");
    const raw = eml([], body);
    expect(raw.length).toBeGreaterThan(30_000);
    expect((await parseInbound(raw)).text).toBe("Sounds good, ship it on Friday.\n\nAnna");
  });

  it("input that makes email-reply-parser's patterns backtrack stays fast, long lines intact", async () => {
    const longLine = " on at".repeat(4000);
    const body = [
      "Hi",
      longLine,
      "\n".repeat(40_000),
      "Op a\n".repeat(50_000),
      "schreef x:",
      "-- ",
      "Anna",
    ].join("\n");
    const started = Date.now();
    const mail = await parseInbound(eml([], body));
    // Unguarded, the long line alone takes about 30 s and the blank lines 15 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(mail.text.split("\n").slice(0, 2)).toEqual(["Hi", longLine]);
    expect(mail.text).not.toContain("Anna");
  });

  it("inline answers between quoted lines are kept", async () => {
    const body = [
      "On Tue, Dec 1, 2026 at 10:00 AM Relay Support <app-1@mail.test> wrote:",
      "> Which plan are you on?",
      "Pro, since March.",
      "> And how many seats?",
      "Three.",
    ].join("\n");
    expect((await parseInbound(eml([], body))).text).toBe("Pro, since March.\nThree.");
  });

  it.each([
    [
      "'-- ' signature",
      "Thanks for the quick fix!\n\n-- \nAnna Berg\nHead of Operations, Example Ltd\n+49 30 1234567",
    ],
    [
      "-----Original Message-----",
      "Thanks for the quick fix!\n\n-----Original Message-----\nFrom: Relay Support [mailto:app-1@mail.test]\n" +
        "Sent: Tuesday, December 1, 2026 10:00 AM\nTo: Anna Berg\nSubject: Fix\n\nWe deployed a fix.",
    ],
    [
      "Apple attribution not quoted, above unquoted history",
      "Thanks for the quick fix!\n\nOn 1 Dec 2026, at 10:00, Relay Support <app-1@mail.test> wrote:\nWe deployed a fix.",
    ],
    [
      "German Thunderbird",
      "Thanks for the quick fix!\n\nAm 01.12.26 um 10:00 schrieb Relay Support:\n> We deployed a fix.",
    ],
    [
      "Get Outlook for iOS",
      "Thanks for the quick fix!\n\nGet Outlook for iOS\n________________________________\nFrom: x",
    ],
  ])("%s is removed", async (_, body) => {
    expect((await parseInbound(eml([], body))).text).toBe("Thanks for the quick fix!");
  });

  it("an Outlook forward (FW:) keeps the message below its header block", async () => {
    const body = [
      "See the contract question below.",
      "",
      "________________________________",
      "From: Legal <legal@example.com>",
      "Sent: Monday, November 30, 2026 4:00 PM",
      "To: Anna Berg <anna@example.com>",
      "Subject: Contract",
      "",
      "Please sign by Friday.",
    ].join("\n");
    expect((await parseInbound(eml(["Subject: FW: Contract"], body))).text).toBe(body);
  });
});
