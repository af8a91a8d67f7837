import { processWide } from "../config/process-wide";

/** Who could answer an app's visitors when last asked (lib/messenger/activity.ts operatorsNow), and when. */
export interface OperatorsSeen {
  online: boolean;
  opensAt: Date | null;
  at: number;
}

export const operatorsSeen = () =>
  processWide("messenger.operators-online", () => new Map<bigint, OperatorsSeen>());

/**
 * Forgets what is known of the app's operators: an operator who sets themselves Away or Available is seen by the
 * next visitor at once (on this instance; others ask again within their few seconds).
 */
export function forgetOperatorsOnline(appId: bigint): void {
  operatorsSeen().delete(appId);
}

/**
 * Forgets every app's reading: an operator's panel connected or went (this instance knows not which apps they
 * answer for without asking the database, and the readings are cheap to make again).
 */
export function forgetAllOperatorsOnline(): void {
  operatorsSeen().clear();
}
