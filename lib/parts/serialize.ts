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
  // Keys in the order the API has always written them; the switched-off ones left out.
  return {
    id: p.id,
    created: seconds(p.created),
    conversation: p.conversationId,
    body: p.body,
    ...(f.body_json !== false ? { body_json: record(p.bodyJson) } : {}),
    read: p.read,
    // Written only as one of the two (directionOf, lib/parts/state.ts).
    direction: p.direction === "u2a" ? "u2a" : "a2u",
    type: p.type,
    sent_via: p.sentVia,
    ...(f.attachments !== false
      ? { attachments: p.attachments.map((a) => serializeAttachment(a, o.urls)) }
      : {}),
    ...(f.meta_data !== false ? { meta_data: record(p.metaData) } : {}),
    reply_type: p.replyType,
    ...(f.actions !== false ? { actions: buttons(p.actions) } : {}),
    edited: p.edited ?? null,
    removed: p.removed ?? null,
    external_id: p.externalId,
    part_group: p.partGroup,
    // A visitor's message names the user by ID; everything else names the operator (null for automatic changes).
    from: p.fromUserId !== null && p.direction === "u2a" ? p.fromUserId : serializeActor(p.fromAdmin),
    random_id: p.randomId,
    referrer: p.referrer,
    ...(p.type === "assigned" ? { assignee: serializeActor(p.assignee) } : {}),
  };
}
