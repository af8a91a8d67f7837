import type { Endpoint } from "./endpoint";
import * as auth from "../auth/endpoints";
import * as channels from "../channels/endpoints";
import * as apps from "../apps/endpoints";

/** Every endpoint, for the OpenAPI document; a test checks no route file serves one missing here. */
export const catalog: Endpoint[] = [auth, channels, apps].flatMap((m) => Object.values(m) as Endpoint[]);
