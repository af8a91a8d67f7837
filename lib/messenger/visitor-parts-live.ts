import type { Actor, Part } from "../parts/schemas";
import type { VisitorAdmin, VisitorPart } from "./visitor-schemas";

/**
 * The visitor's view of a part, from a `conversation_reply` event's payload (the part as API v2 gives it): the
 * sockets' twin of serializeVisitorPart (visitor-parts.ts, from the database rows), with the same schema. Only messages are visible (an
 * article reads as the operator's reply); a note, an assignment or any system part gives undefined.
 */
export function visitorPartOfPayload(p: Part): VisitorPart | undefined {
  if (p.type !== "reply_user" && p.type !== "reply_admin" && p.type !== "article") return undefined;
  const out: VisitorPart = {
    id: p.id,
    conversation: p.conversation,
    created: p.created,
    type: p.type === "reply_user" ? "reply_user" : "reply_admin",
    body: p.body,
    from: p.type === "reply_user" ? { kind: "user" } : { kind: "admin", ...visitorOperator(actorOf(p.from)) },
    attachments: (p.attachments ?? []).map((a) => ({
      id: a.id,
      name: a.filename,
      type: a.mime_type,
      size: a.size,
      url: a.url,
      image: a.mime_type.startsWith("image/"),
    })),
    read: p.read,
  };
  if (p.body_json != null) out.body_json = p.body_json;
  if (p.actions?.length)
    out.actions = p.actions.map((b) => ({
      type: "button",
      body: b.body,
      ...(b.meta_data ? { meta_data: b.meta_data } : {}),
    }));
  if (p.random_id !== 0 && p.random_id !== "0") out.random_id = p.random_id;
  return out;
}

const actorOf = (from: Part["from"]): Actor | null => (typeof from === "object" ? from : null);

/** An operator as visitors see them: name and picture, never an email; 0 and empty for automatic messages. */
export function visitorOperator(a: Actor | null | undefined): VisitorAdmin {
  return { id: a?.id ?? 0, name: a?.name ?? "", avatar: a?.avatar ?? "" };
}
