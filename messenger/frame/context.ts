import type { Api } from "./api";
import type { Store } from "./store";
import type { AutoMessage, Part, Visitor, VisitorMessenger } from "./types";

/** What the views get from the frame's controller (app.ts). */
export interface FrameContext {
  api: Api;
  store: Store;
  messenger: VisitorMessenger;
  visitor: Visitor;
  /** No operator online (heartbeat): the views offer the email field. */
  offline: boolean;
  /** The messenger is shown on the host page. */
  visible: boolean;
  /** Who is typing, per conversation, until when (ms). */
  typing: Map<number, { name: string; until: number }>;
  /** The chat messages and pop-ups sent to the visitor (auto-messages.ts). */
  messages: Messages;
  go(view: View): void;
  /** "New conversation": the launcher bot opens it when the app has one, else the empty composer. */
  newConversation(): Promise<void>;
  /** Sends the visitor's message (a new conversation when `conversation` is null). */
  send(conversation: number | null, body: string, file?: File, progress?: (f: number) => void): Promise<void>;
  quickReply(part: Part, action: number): Promise<void>;
  typed(conversation: number, body: string): void;
  saveEmail(email: string): Promise<void>;
  emit(name: string, data?: unknown): void;
}

export type View =
  | { name: "home" }
  | { name: "thread"; conversation: number | null }
  /** A chat message (with a composer to answer it) or a pop-up, by its send's ID. */
  | { name: "message"; send: number };

/** The chat messages and pop-ups as the views use them (auto-messages.ts, AutoMessages). */
export interface Messages {
  shown(): AutoMessage[];
  get(send: number): AutoMessage | undefined;
  isThanked(send: number): boolean;
  unread(): number;
  title(send: number): string;
  load(): Promise<void>;
  add(m: AutoMessage): void;
  fromPreview(send: number, action: "open" | "dismiss"): void;
  dismiss(send: number): void;
  sync(): void;
  reply(send: number, body: string): Promise<void>;
  click(send: number, email?: string): Promise<void>;
}
