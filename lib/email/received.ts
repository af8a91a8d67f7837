/** What became of an inbound message (lib/email/receive.ts). */
import type { InboundOutcome } from "./schemas";

export interface Received {
  outcome: InboundOutcome;
  /** Why it was ignored or refused, or how a bounce was read. */
  reason: string | null;
  appId: bigint | null;
  conversationId: bigint | null;
  partId: bigint | null;
  /** A refusal a sender may retry later (SMTP 451 rather than 550). */
  temporary?: boolean;
}
