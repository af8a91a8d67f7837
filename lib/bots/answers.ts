import { z } from "zod";
import { askInputOf, type AskInput } from "./steps";

/**
 * How a bot checks the answer to its question, and what it says when the answer does not do: the same for the
 * runtime (lib/conversations/bot-run.ts) and the editor's test mode (components/bots/bot-sim.ts). Browser-safe.
 */
const emailAddress = z.email();
const PHONE = /^\+?[0-9][0-9 ().-]{3,30}$/;

export const RETRY: Record<AskInput, string> = {
  email: "That does not look like an email address. Could you check it?",
  phone: "That does not look like a phone number. Could you check it?",
  text: "Could you answer in a few words?",
};

/** The answer as the user's prop will hold it, or null when the bot asks again. */
export function answerOf(prop: string, body: string): string | null {
  const v = body.trim();
  const input = askInputOf(prop);
  if (input === "email") return emailAddress.safeParse(v).success ? v : null;
  if (input === "phone") return PHONE.test(v) && v.replace(/\D/g, "").length >= 5 ? v : null;
  return v.length > 0 && v.length <= 1000 ? v : null;
}
