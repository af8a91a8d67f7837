/** Shapes of the users and leads endpoints as the v2 API returns them (IDs may be strings or numbers). */
export type Id = string | number;
/** `online`, `idle` or `offline`. */
export type Presence = string;

export interface Lead {
  id: Id;
  presence: Presence;
  props: Record<string, unknown>;
  tags?: string[];
}

export interface LeadsPage {
  total: number;
  users: Lead[];
}

export type PropType = "string" | "integer" | "float" | "boolean" | "datetime" | "list";

export interface CatalogProp {
  name: string;
  kind: "system" | "custom" | "event";
  type: PropType;
  label: string;
  read_only: boolean;
  users?: number;
}

export interface Segment {
  id: Id;
  app: Id;
  name: string;
  filters: unknown;
}

export interface Note {
  id: Id;
  app: Id;
  user: Id;
  body: string;
  created: number;
  admin: { id: Id; name: string; avatar: string } | null;
}

/** A user as conversations embed them. */
export interface UserShort {
  id: Id;
  app: Id;
  user_id: string;
  presence: Presence;
  props: Record<string, unknown>;
}

/** A user read with every switch of GET /users/{id} on (USER_CARD_SWITCHES). */
export interface UserCard extends UserShort {
  props_custom: Record<string, unknown>;
  props_events: Record<string, unknown>;
  presence_details: {
    presence: Presence;
    page_url: string | null;
    page_title: string | null;
    last_heartbeat: number | null;
  };
  events: {
    first: number;
    last: number;
    count: number;
    event_type: { id: Id; name: string; score: number };
  }[];
  segments: Segment[];
  notes: Note[];
  tags: string[];
  email_status: string;
}

export interface UserEvent {
  id: Id;
  created: number;
  type: { id: Id; name: string; score: number; visible: boolean };
  user: Id;
  props: Record<string, unknown>;
}

export interface UserConversation {
  id: Id;
  created: number;
  closed: boolean;
  /** Unix seconds a snoozed conversation wakes at. */
  delayed_until?: number | null;
  last_update: number;
  parts_count: number;
  part_last?: { body?: string | null; type?: string } | null;
  reply_last?: { body?: string | null } | null;
}

export interface ImportJob {
  id: Id;
  /** `pending`, `running`, `done` or `failed`. */
  status: string;
  total_bytes: number;
  processed_bytes: number;
  rows_processed: number;
  rows_imported: number;
  rows_failed: number;
  row_errors: { row: number; error: string }[];
  error: string | null;
}

/** The leads table's page parameters, as the URL holds them. */
export interface LeadsQuery {
  filters: import("./lead-filters").FilterGroup;
  sort: string;
  order: "asc" | "desc";
  page: number;
  size: 20 | 50;
}

export const usersPath = (userId: Id) => `/api/users/${encodeURIComponent(String(userId))}`;
export const appPath = (appId: Id) => `/api/apps/${encodeURIComponent(String(appId))}`;
