/**
 * Messages between the panel's editors and the frame in preview mode: the Messages editor
 * (components/messages/message-preview.tsx) posts the message as the visitor would receive it and the frame draws
 * it (messenger/frame/preview-mode.ts); the Bots editor's test mode (components/bots/test-panel.tsx) posts its run's
 * conversation and the frame posts the visitor's answers back (messenger/frame/preview-bot.ts). Same tag as the loader's messages (protocol.ts); both sides are our origin and check it. The frame
 * parses what it gets here by hand rather than with the server's schema: no zod in the frame's bundle.
 */
import type { VisitorMessage } from "../lib/messenger/visitor-schemas";
import { isMessage, type TAG } from "./protocol";

/** The query that boots the frame in preview mode: no key, no visitor, no API, no socket. */
export const PREVIEW_QUERY = "preview=1";
/** The Bots editor's test mode: the frame draws the run's conversation and posts the visitor's answers back. */
export const PREVIEW_BOT_QUERY = "preview=bot";
export const isPreviewQuery = (search: string) => new URLSearchParams(search).get("preview") === "1";
export const isBotPreviewQuery = (search: string) => new URLSearchParams(search).get("preview") === "bot";

/** The message as the visitor API would send it, less what only a send has (its IDs, its time). */
export type PreviewMessage = Pick<
  VisitorMessage,
  "kind" | "sender" | "title" | "body" | "button" | "email_field"
>;

export interface PreviewDraw {
  message: PreviewMessage;
  /** The app's messenger accent colour (#rrggbb); null: the frame's default. */
  accent: string | null;
}

export type ToPreview = { tag: typeof TAG; type: "preview" } & PreviewDraw;
export type FromPreview = { tag: typeof TAG; type: "preview-ready" };

/** A line of a bot's test run: the bot's (its buttons or the answer it asks for, while it waits) or the visitor's. */
export type BotPreviewLine =
  | { from: "bot"; text: string; buttons?: string[]; ask?: "email" | "phone" | "text" }
  | { from: "visitor"; text: string };

/** The run so far, drawn whole on each post (`run` changes when it restarts: the frame starts a new thread). */
export interface BotPreview {
  run: number;
  sender: { name: string; avatar: string };
  lines: BotPreviewLine[];
  /** The run ended (handed over, closed): the composer is closed. */
  done: boolean;
  accent: string | null;
}
export type ToBotPreview = { tag: typeof TAG; type: "preview-bot" } & BotPreview;
/** What the visitor did in the frame: clicked a quick reply, or sent a text. */
export type BotPreviewInput = { button: number } | { text: string };
export type FromBotPreview = { tag: typeof TAG; type: "preview-answer"; run: number; input: BotPreviewInput };

const ACCENT = /^#[0-9a-f]{6}$/i;

export const isPreviewReady = (data: unknown): boolean =>
  isMessage<FromPreview>(data) && data.type === "preview-ready";

/** What the editor posted, or null for anything else (another message, a malformed one). */
export function parsePreview(data: unknown): PreviewDraw | null {
  if (!isMessage<ToPreview>(data) || data.type !== "preview") return null;
  const record = (v: unknown): Record<string, unknown> | null =>
    typeof v === "object" && v !== null ? (v as Record<string, unknown>) : null;
  const m = record(data.message);
  if (!m || (m.kind !== "chat" && m.kind !== "popup") || typeof m.body !== "string") return null;
  const s = record(m.sender);
  const b = record(m.button);
  const sender =
    s && (typeof s.id === "number" || typeof s.id === "string") && typeof s.name === "string"
      ? { id: s.id, name: s.name, avatar: typeof s.avatar === "string" ? s.avatar : "" }
      : null;
  const action: "link" | "reply" | null =
    b?.action === "link" ? "link" : b?.action === "reply" ? "reply" : null;
  const button =
    b && action && typeof b.label === "string"
      ? { label: b.label, action, url: typeof b.url === "string" ? b.url : null }
      : null;
  const accent = typeof data.accent === "string" && ACCENT.test(data.accent) ? data.accent : null;
  return {
    message: {
      kind: m.kind,
      sender,
      title: typeof m.title === "string" ? m.title : null,
      body: m.body,
      button,
      email_field: m.email_field === true,
    },
    accent,
  };
}

const ASKS = ["email", "phone", "text"] as const;
const str = (v: unknown) => (typeof v === "string" ? v : null);

/** What the Bots editor posted, or null for anything else. */
export function parseBotPreview(data: unknown): BotPreview | null {
  if (!isMessage<ToBotPreview>(data) || data.type !== "preview-bot" || !Array.isArray(data.lines))
    return null;
  const lines: BotPreviewLine[] = [];
  for (const raw of data.lines as unknown[]) {
    const l = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const text = str(l.text);
    if (text === null) return null;
    if (l.from === "visitor") lines.push({ from: "visitor", text });
    else if (l.from === "bot") {
      const buttons = Array.isArray(l.buttons) ? l.buttons.map((b) => str(b) ?? "") : undefined;
      const ask = ASKS.find((a) => a === l.ask);
      lines.push({ from: "bot", text, ...(buttons ? { buttons } : {}), ...(ask ? { ask } : {}) });
    } else return null;
  }
  const s = (typeof data.sender === "object" && data.sender !== null ? data.sender : {}) as Record<
    string,
    unknown
  >;
  return {
    run: typeof data.run === "number" ? data.run : 0,
    sender: { name: str(s.name) ?? "", avatar: str(s.avatar) ?? "" },
    lines,
    done: data.done === true,
    accent: typeof data.accent === "string" && ACCENT.test(data.accent) ? data.accent : null,
  };
}

/** The visitor's answer the frame posted, or null for anything else. */
export function parseBotAnswer(data: unknown): { run: number; input: BotPreviewInput } | null {
  if (!isMessage<FromBotPreview>(data) || data.type !== "preview-answer" || typeof data.run !== "number")
    return null;
  const i = (typeof data.input === "object" && data.input !== null ? data.input : {}) as Record<
    string,
    unknown
  >;
  if (typeof i.button === "number" && Number.isInteger(i.button) && i.button >= 0)
    return { run: data.run, input: { button: i.button } };
  if (typeof i.text === "string") return { run: data.run, input: { text: i.text } };
  return null;
}
