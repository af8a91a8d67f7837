import type { Endpoint } from "../api/endpoint";
import * as auth from "../sessions/endpoints";
import * as channels from "../channels/endpoints";
import * as admins from "../admins/endpoints";
import * as availability from "../admins/endpoints-availability";
import * as apps from "../apps/endpoints";
import * as routing from "../apps/endpoints-routing";
import * as ping from "./endpoints-ping";
import * as health from "./endpoints-health";
import { openApiEndpoint } from "./endpoints-openapi";
import * as webhooks from "../webhooks/endpoints";
import * as attachments from "../attachments/endpoints";
import * as convList from "../conversations/endpoints-list";
import * as convGet from "../conversations/endpoints-get";
import * as convReply from "../conversations/endpoints-reply";
import * as convState from "../conversations/endpoints-state";
import * as convStart from "../conversations/endpoints-start";
import * as users from "../users/endpoints";
import * as userNotes from "../users/endpoints-notes";
import * as userConversations from "../conversations/endpoints-user";
import * as props from "../props/endpoints";
import * as events from "../events/endpoints";
import * as leads from "../leads/endpoints";
import * as segments from "../segments/endpoints";
import * as savedReplies from "../saved-replies/endpoints";
import * as notifications from "../notifications/endpoints";
import * as imports from "../imports/endpoints";
import * as leadsExport from "../leads/endpoints-export";
import * as propCatalog from "../props/endpoints-catalog";
import * as tokens from "../sessions/endpoints-token";
import * as messenger from "../messenger/endpoints";
import * as visitors from "../messenger/endpoints-visitor";
import * as visitorConversations from "../messenger/endpoints-visitor-conversations";
import * as visitorBot from "../messenger/endpoints-visitor-bot";
import * as visitorIdentity from "../messenger/endpoints-visitor-identity";
import * as search from "../search/endpoints";
import * as reports from "../reports/endpoints";
import * as reportsExport from "../reports-export/endpoints";
import * as bulk from "../bulk/endpoints";
import * as email from "../email/endpoints";
import * as emailInbound from "../email/endpoints-inbound";
import * as messages from "../messages/endpoints";
import * as visitorMessages from "../messages/endpoints-visitor";
import * as messageUnsubscribe from "../messages/endpoints-unsubscribe";
import * as bots from "../bots/endpoints";
import * as csat from "../csat/endpoints";
import * as csatEmail from "../csat/endpoints-email";
import * as visitorCsat from "../messenger/endpoints-visitor-csat";

/**
 * Every endpoint: the table the one router of /api matches (lib/api/direct.ts, in front of Next and behind its
 * catch-all route), handed to it by the composition (lib/compose/start.ts, app/api/[...path]/route.ts).
 */
const modules: Record<string, unknown>[] = [
  ping,
  health,
  auth,
  channels,
  admins,
  availability,
  apps,
  routing,
  webhooks,
  email,
  emailInbound,
  messageUnsubscribe,
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
  savedReplies,
  notifications,
  imports,
  leadsExport,
  propCatalog,
  messenger,
  search,
  reports,
  reportsExport,
  bulk,
  messages,
  bots,
  csat,
  csatEmail,
];
const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === "object" && v !== null && "spec" in v && "handle" in v;

/** Endpoints of API v3 alone (no v1 or v2 form): routed and documented, kept apart from the v1/v2 catalog. */
export const v3Only: Endpoint[] = Object.values(tokens).filter(isEndpoint);

export const catalog: Endpoint[] = [
  ...modules.flatMap((m) => Object.values(m).filter(isEndpoint)),
  openApiEndpoint(() => routes),
];

/**
 * The messenger's visitor endpoints (/messenger/…, `auth: "visitor"` or a public key): apart from the operators'
 * catalog, whose suites call every endpoint with API keys and sessions.
 */
export const visitorEndpoints: Endpoint[] = [
  visitors,
  visitorConversations,
  visitorBot,
  visitorIdentity,
  visitorMessages,
  visitorCsat,
].flatMap((m) => Object.values(m).filter(isEndpoint));

/** What the router matches: every version's endpoints. */
export const routes: Endpoint[] = [...catalog, ...v3Only, ...visitorEndpoints];
