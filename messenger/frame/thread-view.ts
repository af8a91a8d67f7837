/** The open conversation's view, as its composer and the controller (app.ts) hold it. */
export interface ThreadView {
  /** Null until the first message makes the conversation. */
  conversation: number | null;
  update(): void;
}
