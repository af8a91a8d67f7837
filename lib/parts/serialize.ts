import type { AttachmentUrl } from "../attachments/sign";
import type { ActorView, PartView } from "./load";
import type { Serialized } from "../contract/schemas";
import type { Actor, Attachment } from "./schemas";

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

export function serializePart(p: PartView, o: PartOpts) {
  const f = o.fields ?? {};
  const out: Record<string, unknown> = {
    id: p.id,
    created: seconds(p.created),
    conversation: p.conversationId,
    body: p.body,
  };
  if (f.body_json !== false) out.body_json = p.bodyJson;
  out.read = p.read;
  out.direction = p.direction;
  out.type = p.type;
  out.sent_via = p.sentVia;
  if (f.attachments !== false) out.attachments = p.attachments.map((a) => serializeAttachment(a, o.urls));
  if (f.meta_data !== false) out.meta_data = p.metaData;
  out.reply_type = p.replyType;
  if (f.actions !== false) out.actions = p.actions ?? null;
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
