/**
 * Messages between the panel's Messages editor (components/messages/message-preview.tsx) and the frame in preview
 * mode (messenger/frame/preview-mode.ts): the editor posts the message as the visitor would receive it, the frame
 * draws it. Same tag as the loader's messages (protocol.ts); both sides are our origin and check it. The frame
 * parses what it gets here by hand rather than with the server's schema: no zod in the frame's bundle.
 */
import type { VisitorMessage } from "../lib/messenger/visitor-schemas";
import { isMessage, type TAG } from "./protocol";

/** The query that boots the frame in preview mode: no key, no visitor, no API, no socket. */
export const PREVIEW_QUERY = "preview=1";
export const isPreviewQuery = (search: string) => new URLSearchParams(search).get("preview") === "1";

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
