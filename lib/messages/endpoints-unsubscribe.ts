import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { unsubscribeFromEmail } from "./unsubscribe";

// Here rather than beside the email channel's endpoints: a message's link also records its unsubscribe, and the
// messages build on the email channel, not the other way round.
export const postEmailUnsubscribe = endpoint({
  method: "POST",
  path: "/email/unsubscribe",
  summary:
    "Unsubscribe the person an email's link names (RFC 8058 one-click: the mail program POSTs " +
    "List-Unsubscribe=One-Click)",
  tags: ["Email"],
  // The link is the credential: an operator's session cookie riding along (without CSRF) must not refuse it.
  auth: "secret",
  ias: false,
  v2: {
    response: z.strictObject({ email_status: z.string(), changed: z.boolean() }),
    params: z.object({
      t: p.str({ min: 1, max: 100 }),
      s: p.id().optional().meta({ description: "the message send an email message's link names" }),
      "List-Unsubscribe": p.str({ max: 100 }).optional(),
    }),
    handler: async (ctx, input) => {
      const r = await unsubscribeFromEmail(ctx, { token: input.t, sendId: input.s });
      return { data: { email_status: r.emailStatus, changed: r.changed } };
    },
  },
});
