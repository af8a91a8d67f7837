import type { Highlight, SearchResult } from "@/lib/search/schemas";

/** One row of the search list: where Enter takes the operator, and what it shows. */
export interface SearchRow {
  key: string;
  section: "Messages" | "Conversations" | "Leads";
  href: string;
  title: string;
  detail: string;
  highlight: Highlight;
}

interface VisitorLike {
  id: number | string;
  name: string | null;
  email: string | null;
  user_id: string | null;
}

export function visitorLabel(v: VisitorLike): string {
  return v.name || v.email || v.user_id || `Visitor #${v.id}`;
}

const FIELD_LABEL = { name: "name", email: "email", phone: "phone", user_id: "user ID" } as const;

/** The results in the order the list shows them: messages, then conversations by visitor, then leads. */
export function searchRows(r: SearchResult | undefined): SearchRow[] {
  if (!r) return [];
  return [
    ...r.messages.map((m): SearchRow => ({
      key: `m${m.part_id}`,
      section: "Messages",
      href: `/inbox?c=${m.conversation_id}`,
      title: visitorLabel(m.visitor),
      detail: `${m.part_type === "note" ? "Note" : "Message"} · ${m.closed ? "closed" : "open"}`,
      highlight: m.highlight,
    })),
    ...r.conversations.map((c): SearchRow => ({
      key: `c${c.conversation_id}`,
      section: "Conversations",
      href: `/inbox?c=${c.conversation_id}`,
      title: visitorLabel(c.visitor),
      detail: `Conversation #${c.conversation_id} · ${FIELD_LABEL[c.field]} · ${c.closed ? "closed" : "open"}`,
      highlight: c.highlight,
    })),
    ...r.leads.map((l): SearchRow => ({
      key: `l${l.id}`,
      section: "Leads",
      href: `/leads/users/${l.id}`,
      title: visitorLabel(l),
      detail: `${l.is_lead ? "Lead" : "User"} · ${FIELD_LABEL[l.field]}`,
      highlight: l.highlight,
    })),
  ];
}
