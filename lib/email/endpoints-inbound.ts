import crypto from "node:crypto";
import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { validation } from "../api/errors";
import { assertApp } from "../auth/context";
import { p } from "../contract/zod";
import { denied, throttled } from "../domain/errors";
import { getRuntime } from "../server/runtime";
import { MAX_INBOUND_BYTES, receiveEmail } from "./receive";
import type { Received } from "./received";
import { inboundResultSchema } from "./schemas";

const TAGS = ["Email"];

function answer(r: Received) {
  // Refusals the sender may retry (a flood) are 429; the rest are answers about the message, not errors.
  if (r.temporary) throw throttled(`Refused for now: ${r.reason}.`, 60);
  return { data: { outcome: r.outcome, reason: r.reason, conversation: r.conversationId } };
}

function authorized(header: string | null, secret: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "");
  const want = Buffer.from(secret);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}

export const postEmailInbound = endpoint({
  method: "POST",
  path: "/email/inbound",
  summary:
    "A raw email (Content-Type: message/rfc822, up to 25 MB) forwarded by a mail provider, with " +
    "`Authorization: Bearer <INBOUND_EMAIL_SECRET>`: appended to the conversation it answers, or a new one",
  tags: TAGS,
  auth: "secret",
  ias: false,
  rawBody: true,
  bodyLimit: MAX_INBOUND_BYTES,
  v2: {
    response: inboundResultSchema,
    params: z.object({}),
    handler: async (_ctx, _input, req) => {
      const rt = getRuntime();
      // Read first (bounded by bodyLimit): a body over the limit is a 413 whoever sends it.
      const raw = Buffer.from(await req.arrayBuffer());
      const secret = rt.config.email.inboundSecret;
      if (!secret) throw denied("Inbound email over HTTP is off: the server has no INBOUND_EMAIL_SECRET.");
      if (!authorized(req.headers.get("authorization"), secret))
        throw denied("Wrong or missing secret: send Authorization: Bearer <INBOUND_EMAIL_SECRET>.");
      const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
      if (type !== "message/rfc822")
        throw validation({ body: "must be a whole email, sent as Content-Type: message/rfc822" });
      const r = await receiveEmail(rt, raw);
      if (r.outcome === "refused" && r.reason?.startsWith("not an email"))
        throw validation({ body: r.reason });
      return answer(r);
    },
  },
});

export const postAppEmailInbound = endpoint({
  method: "POST",
  path: "/apps/{id}/email/inbound",
  summary:
    "Receive a pasted email source as if it had been mailed to the app (trying the channel without a mail server)",
  tags: TAGS,
  scopes: ["app-admin"],
  bodyLimit: MAX_INBOUND_BYTES + 64 * 1024,
  v2: {
    response: inboundResultSchema,
    params: z.object({ id: p.appId(), raw: p.str({ min: 1, max: MAX_INBOUND_BYTES }) }),
    handler: async (ctx, input) => {
      assertApp(ctx, input.id);
      const raw = Buffer.from(input.raw.replace(/\r?\n/g, "\r\n"), "utf8");
      const r = await receiveEmail(getRuntime(), raw, { onlyApp: input.id });
      if (r.outcome === "refused" && r.reason?.startsWith("not an email"))
        throw validation({ raw: r.reason });
      return answer(r);
    },
  },
});
