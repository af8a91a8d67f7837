import type { Id } from "@/lib/api/schemas";
import type { UserV2 } from "@/lib/users/schemas";
import type { FilterGroup } from "@/lib/leads/filter-grammar";

/**
 * Shapes of the users and leads endpoints as the v2 API returns them: inferred from the schemas the endpoints
 * declare (type imports only, nothing reaches the bundle). IDs may be strings or numbers (id_as_string).
 */
export type { Id } from "@/lib/api/schemas";
export type { Presence, UserShort, Note, UserEvent } from "@/lib/users/schemas";
export type { Lead, LeadsPage, PropType, CatalogProp } from "@/lib/leads/schemas";
export type { Segment } from "@/lib/segments/schemas";
export type { ImportJob } from "@/lib/imports/schemas";
/** A user's conversations (GET /users/{id}/conversations) are the v2 Conversation object. */
export type { Conversation as UserConversation } from "@/lib/conversations/schemas";

/** The parts of a user that USER_CARD_SWITCHES turns on. */
type CardParts =
  | "props"
  | "props_custom"
  | "props_events"
  | "presence_details"
  | "events"
  | "segments"
  | "notes"
  | "tags"
  | "email_status";
/** A user read with every switch of GET /users/{id} on (USER_CARD_SWITCHES). */
export type UserCard = UserV2 & Required<Pick<UserV2, CardParts>>;

/** The leads table's page parameters, as the URL holds them. */
export interface LeadsQuery {
  filters: FilterGroup;
  sort: string;
  order: "asc" | "desc";
  page: number;
  size: 20 | 50;
}

export const usersPath = (userId: Id) => `/api/users/${encodeURIComponent(String(userId))}`;
export const appPath = (appId: Id) => `/api/apps/${encodeURIComponent(String(appId))}`;
