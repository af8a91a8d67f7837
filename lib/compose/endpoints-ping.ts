import { z } from "zod";
import type { Ctx } from "../auth/context";
import { endpoint } from "../api/endpoint";
import { whoamiSchema } from "../sessions/schemas";

export const getPing = endpoint({
  method: "GET",
  path: "/ping",
  summary: "Check connectivity and credentials: who the caller is",
  tags: ["Meta"],
  scopes: [],
  auth: "optional",
  v1: { params: z.object({}), response: whoamiSchema, handler: async (ctx) => ({ data: whoami(ctx.actor) }) },
  v2: { params: z.object({}), response: whoamiSchema, handler: async (ctx) => ({ data: whoami(ctx.actor) }) },
});

function whoami(actor: Ctx["actor"]) {
  if (actor.kind === "token") return { actor: "token", app: actor.appId, scopes: actor.scopes };
  if (actor.kind === "admin") return { actor: "operator", admin: actor.adminId, apps: actor.appIds };
  return { actor: "anonymous" };
}
