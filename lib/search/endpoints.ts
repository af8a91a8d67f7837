import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { requireScopes } from "../api/access";
import { p } from "../contract/zod";
import { LAST_SECOND } from "../contract/dates";
import { invalid } from "../domain/errors";
import { searchInbox, type ConversationFound, type LeadFound, type MessageFound } from "./search";
import { SEARCH_KINDS, SEARCH_STATES, searchResultSchema } from "./schemas";

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const fromSeconds = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));

function visitorOut(v: MessageFound["visitor"]) {
  return { id: v.id, name: v.name, email: v.email, phone: v.phone, user_id: v.userId };
}

function conversationOut(h: MessageFound | ConversationFound) {
  return {
    conversation_id: h.conversationId,
    closed: h.closed,
    assignee_id: h.assigneeId,
    last_update: seconds(h.lastUpdate),
    visitor: visitorOut(h.visitor),
  };
}

function leadOut(l: LeadFound) {
  return {
    ...visitorOut(l),
    is_lead: l.isLead,
    last_seen: l.lastSeen ? seconds(l.lastSeen) : null,
    field: l.field,
    highlight: l.highlight,
  };
}

export const searchApp = endpoint({
  method: "GET",
  path: "/apps/{id}/search",
  reads: "replica",
  summary:
    "Search the app: conversations by the text of replies and notes or by the visitor's name, email, phone or " +
    "user ID, and leads by the same fields (kind leads or all also needs the users-list scope)",
  tags: ["Apps"],
  scopes: ["conversations-read"],
  v2: {
    response: searchResultSchema,
    params: z.object({
      id: p.appId(),
      q: p.str({ min: 1, max: 200, trim: true }),
      kind: p.oneOf(SEARCH_KINDS).optional().meta({ description: "default conversations" }),
      state: p.oneOf(SEARCH_STATES).optional(),
      assignee: p.id({ allowZero: true }).optional().meta({ description: "an admin's ID; 0: unassigned" }),
      from: p.int({ min: 0, max: LAST_SECOND }).optional().meta({ description: "unix seconds, inclusive" }),
      to: p.int({ min: 0, max: LAST_SECOND }).optional().meta({ description: "unix seconds, exclusive" }),
      limit: p.int({ min: 1, max: 50 }).optional(),
      cursor: p.str({ min: 1, max: 20 }).optional().meta({ description: "next_cursor of the previous page" }),
    }),
    handler: async (ctx, input) => {
      const kind = input.kind ?? "conversations";
      if (kind !== "conversations" && ctx.actor.kind === "token")
        requireScopes(ctx.actor.scopes, ["users-list"]);
      if (input.from !== undefined && input.to !== undefined && input.from >= input.to)
        throw invalid({ to: "must be after from" });
      const found = await searchInbox(ctx, {
        appId: input.id,
        q: input.q,
        kind,
        state: input.state,
        assignee: input.assignee,
        from: fromSeconds(input.from),
        to: fromSeconds(input.to),
        limit: input.limit ?? 20,
        cursor: input.cursor,
      });
      const data = {
        messages: found.messages.map((m) => ({
          ...conversationOut(m),
          part_id: m.partId,
          part_type: m.partType,
          created: seconds(m.created),
          highlight: m.highlight,
        })),
        conversations: found.conversations.map((c) => ({
          ...conversationOut(c),
          field: c.field,
          highlight: c.highlight,
        })),
        leads: found.leads.map(leadOut),
        next_cursor: found.next,
      };
      return { data };
    },
  },
});
