import type { Endpoint } from "./endpoint";
import * as auth from "../auth/endpoints";
import * as channels from "../channels/endpoints";
import * as apps from "../apps/endpoints";
import * as ping from "./ping-endpoint";
import * as webhooks from "../webhooks/endpoints";

/** Every endpoint, for the OpenAPI document; a test checks no route file serves one missing here. */
const modules: Record<string, Endpoint>[] = [ping, auth, channels, apps, webhooks];
export const catalog: Endpoint[] = modules.flatMap((m) => Object.values(m));
