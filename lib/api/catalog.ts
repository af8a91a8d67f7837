import type { Endpoint } from "./endpoint";
import * as auth from "../auth/endpoints";
import * as channels from "../channels/endpoints";
import * as apps from "../apps/endpoints";
import * as ping from "./ping-endpoint";
import * as webhooks from "../webhooks/endpoints";
import * as attachments from "../attachments/endpoints";
import * as convList from "../conversations/endpoints/list";
import * as convGet from "../conversations/endpoints/get";
import * as convReply from "../conversations/endpoints/reply";
import * as convState from "../conversations/endpoints/state";
import * as convStart from "../conversations/endpoints/start";

/** Every endpoint, for the OpenAPI document; a test checks no route file serves one missing here. */
const modules: Record<string, Endpoint>[] = [
  ping,
  auth,
  channels,
  apps,
  webhooks,
  attachments,
  convList,
  convGet,
  convReply,
  convState,
  convStart,
];
export const catalog: Endpoint[] = modules.flatMap((m) => Object.values(m));
