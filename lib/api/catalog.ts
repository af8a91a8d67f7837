import type { Endpoint } from "./endpoint";
import * as auth from "../auth/endpoints";
import * as channels from "../channels/endpoints";
import * as admins from "../admins/endpoints";
import * as apps from "../apps/endpoints";
import * as ping from "./ping-endpoint";
import * as health from "./health-endpoint";
import { openApiEndpoint } from "./docs-endpoints";
import * as webhooks from "../webhooks/endpoints";
import * as attachments from "../attachments/endpoints";
import * as convList from "../conversations/endpoints/list";
import * as convGet from "../conversations/endpoints/get";
import * as convReply from "../conversations/endpoints/reply";
import * as convState from "../conversations/endpoints/state";
import * as convStart from "../conversations/endpoints/start";
import * as users from "../users/endpoints";
import * as userNotes from "../users/endpoints-notes";
import * as userConversations from "../users/endpoints-conversations";
import * as props from "../props/endpoints";
import * as events from "../events/endpoints";
import * as leads from "../leads/endpoints";
import * as segments from "../segments/endpoints";
import * as imports from "../imports/endpoints";
import * as leadsExport from "../leads/endpoints-export";
import * as propCatalog from "../props/endpoints-catalog";
import * as messenger from "../messenger/endpoints";

/** Every endpoint: the one router of /api (lib/api/direct.ts, in front of Next and behind its catch-all route). */
const modules: Record<string, unknown>[] = [
  ping,
  health,
  auth,
  channels,
  admins,
  apps,
  webhooks,
  attachments,
  convList,
  convGet,
  convReply,
  convState,
  convStart,
  users,
  userNotes,
  userConversations,
  props,
  events,
  leads,
  segments,
  imports,
  leadsExport,
  propCatalog,
  messenger,
];
const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === "object" && v !== null && "spec" in v && "handle" in v;

export const catalog: Endpoint[] = [
  ...modules.flatMap((m) => Object.values(m).filter(isEndpoint)),
  openApiEndpoint(() => catalog),
];
