import { assertApp, type Ctx } from "../auth/context";
import type { BotTemplate } from "./schemas";
import { MAX_BUTTONS, type Step } from "./steps";

/**
 * The bots a site owner starts from. The routing bot asks "Sales or support?" with one button per channel of the
 * app (its first ones), each assigning its channel; an app without channels gets the question's shape with a
 * single hand-over, to fill in.
 */
export async function botTemplates(ctx: Ctx, input: { appId: bigint }): Promise<BotTemplate[]> {
  assertApp(ctx, input.appId);
  const channels = await ctx.db.channel.findMany({
    where: { appId: input.appId },
    select: { id: true, name: true },
    orderBy: { id: "asc" },
    take: MAX_BUTTONS,
  });
  const lead: Step[] = [
    {
      id: "hello",
      type: "text",
      body: "Hi! Nobody from the team is around right now, but we will answer soon.",
    },
    {
      id: "reach",
      type: "buttons",
      body: "Can we email you when we reply?",
      buttons: [
        {
          label: "Yes, email me",
          steps: [
            { id: "email", type: "ask", body: "What is your email address?", prop: "$email" },
            { id: "company", type: "ask", body: "And which company are you with?", prop: "company" },
          ],
        },
        {
          label: "No thanks",
          steps: [
            { id: "later", type: "text", body: "No problem: come back to this page to see our answer." },
          ],
        },
      ],
    },
    {
      id: "done",
      type: "handover",
      body: "Thanks! The team will see your message as soon as they are back.",
    },
  ];
  const routing: Step[] = [
    {
      id: "topic",
      type: "buttons",
      body: "Hi! What can we help you with?",
      buttons: channels.length
        ? channels.map((c, i) => ({
            label: c.name.slice(0, 60),
            steps: [{ id: `to${i + 1}`, type: "assign" as const, channel: Number(c.id) }],
          }))
        : [{ label: "Something else", steps: [] }],
    },
    { id: "done", type: "handover", body: "Thanks! Someone from the right team will be with you shortly." },
  ];
  return [
    {
      key: "lead_bot",
      name: "Lead bot",
      description:
        "When nobody is available, asks the visitor for an email address and company, then hands over.",
      kind: "lead_bot",
      start: { when: "no_operator" },
      steps: lead,
    },
    {
      key: "routing_bot",
      name: "Routing bot",
      description: "Asks what the visitor needs and puts the conversation in that team's channel.",
      kind: "routing_bot",
      start: { when: "always" },
      steps: routing,
    },
  ];
}
