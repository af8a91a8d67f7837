import type { AttachmentUrl } from "../attachments/sign";
import type { ActorView, PartView } from "./load";
import type { Serialized } from "../contract/schemas";
import type { Actor, Attachment, Part, QuickReplyButton } from "./schemas";

export const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The optional fields of a part (GET parts' switches); all are included by default. */
export const PART_FIELDS = ["attachments", "body_json", "meta_data", "actions"] as const;
export type PartFields = Partial<Record<(typeof PART_FIELDS)[number], boolean>>;

export interface PartOpts {
  version: number;
  urls: AttachmentUrl;
  fields?: PartFields;
}

export function serializeActor(a: ActorView | null): Serialized<Actor> | null {
  return a ? { id: a.id, name: a.name, avatar: a.avatar, type: "admin" as const } : null;
}

export function serializeAttachment(
  a: PartView["attachments"][number],
  urls: AttachmentUrl,
): Serialized<Attachment> {
  return {
    type: a.type,
    id: a.id,
    filename: a.filename,
    mime_type: a.mimeType,
    size: a.size,
    url: urls(a.id),
    created: seconds(a.created),
  };
}

/** A stored JSON object column (null where none was stored). */
const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? { ...v } : null;

/** Quick-reply buttons as appendParts stores them, checked by the reply endpoints' schema on the way in. */
const buttons = (v: unknown) => (Array.isArray(v) ? (v as QuickReplyButton[]) : null);

export function serializePart(p: PartView, o: PartOpts): Serialized<Part> {
  const f = o.fields ?? {};
  // Keys in the order the API has always written them; the switched-off ones left out. Assigned one by one rather
  // than spread from conditional objects, which cost several times as much per part (a list page has ~60).
  const out = {
    id: p.id,
    created: seconds(p.created),
    conversation: p.conversationId,
    body: p.body,
  } as Serialized<Part>;
  if (f.body_json !== false) out.body_json = record(p.bodyJson);
  out.read = p.read;
  // Written only as one of the two (directionOf, lib/parts/state.ts).
  out.direction = p.direction === "u2a" ? "u2a" : "a2u";
  out.type = p.type;
  out.sent_via = p.sentVia;
  if (f.attachments !== false) out.attachments = p.attachments.map((a) => serializeAttachment(a, o.urls));
  if (f.meta_data !== false) out.meta_data = record(p.metaData);
  out.reply_type = p.replyType;
  if (f.actions !== false) out.actions = buttons(p.actions);
  out.edited = p.edited ?? null;
  out.removed = p.removed ?? null;
  out.external_id = p.externalId;
  out.part_group = p.partGroup;
  // A visitor's message names the user by ID; everything else names the operator (null for automatic changes).
  out.from = p.fromUserId !== null && p.direction === "u2a" ? p.fromUserId : serializeActor(p.fromAdmin);
  out.random_id = p.randomId;
  out.referrer = p.referrer;
  if (p.type === "assigned") out.assignee = serializeActor(p.assignee);
  return out;
}
