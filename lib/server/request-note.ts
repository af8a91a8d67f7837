import { processWide } from "../config/process-wide";

/**
 * What the edge learns of a request that its log line and metrics need: the endpoint's path pattern, who called
 * and for which app. The server keys it by its IncomingMessage and the router by the web Request it builds, so the
 * pipeline (lib/api/endpoint.ts) fills the same note the server reads when the answer is sent.
 */
export interface RequestNote {
  route?: string;
  actor?: string;
  appId?: bigint;
}

const notes = () => processWide("request-notes", () => new WeakMap<object, RequestNote>());

export function noteOf(key: object): RequestNote | undefined {
  return notes().get(key);
}

export function linkNote(key: object, note: RequestNote): void {
  notes().set(key, note);
}
