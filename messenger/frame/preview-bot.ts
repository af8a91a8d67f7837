import { TAG } from "../protocol";
import {
  parseBotPreview,
  type BotPreview,
  type BotPreviewInput,
  type FromBotPreview,
  type FromPreview,
} from "../preview-protocol";
import type { Api } from "./api";
import type { FrameContext, Messages } from "./context";
import { Store } from "./store";
import { openThread } from "./thread";
import type { ThreadView } from "./thread-view";
import type { Part } from "./types";

/**
 * The frame in the Bots editor's test mode (frame.html?preview=bot, messenger/preview-protocol.ts): the panel runs
 * the bot over its unsaved steps (components/bots/bot-sim.ts) and posts the conversation so far; the frame draws it
 * with the visitor's own thread (thread.ts: bubbles, quick replies, the field a question asks for, the composer)
 * and posts back what the visitor does. No key, visitor, API or socket: the panel is the controller.
 */
const CONVERSATION = 1;

const none = () => Promise.resolve();
const NO_MESSAGES: Messages = {
  shown: () => [],
  get: () => undefined,
  isThanked: () => false,
  unread: () => 0,
  title: () => "",
  load: none,
  add: () => undefined,
  fromPreview: () => undefined,
  dismiss: () => undefined,
  sync: () => undefined,
  reply: none,
  click: none,
};

export function startBotPreview() {
  const $ = (id: string) => document.getElementById(id) as HTMLElement;
  let run = -1;
  let view: ThreadView | undefined;
  const answer = (input: BotPreviewInput) => {
    const m: FromBotPreview = { tag: TAG, type: "preview-answer", run, input };
    parent.postMessage(m, location.origin);
    return Promise.resolve();
  };
  const ctx: FrameContext = {
    // The thread's views never call the API themselves (thread.ts, composer.ts): their controller does, and here
    // the panel is the controller.
    api: undefined as unknown as Api,
    store: new Store(),
    messenger: {
      app: 0,
      accent_color: "",
      position: "right",
      greeting: "",
      team_intro: "",
      reply_time_text: "",
      offline_text: "",
      email_prompt: "",
      identity_required: false,
    },
    visitor: { id: 0, user_id: null, name: null, email: null, anonymous: true },
    offline: false,
    visible: true,
    typing: new Map(),
    messages: NO_MESSAGES,
    go: () => undefined,
    newConversation: none,
    send: (_conversation, body) => answer({ text: body }),
    quickReply: (_part, action) => answer({ button: action }),
    typed: () => undefined,
    saveEmail: none,
    emit: () => undefined,
  };
  $("close").hidden = true;
  $("subtitle").textContent = "Test mode: nothing is sent";

  addEventListener("message", (e: MessageEvent) => {
    // The editor is a panel page, our origin: nothing else may draw in it.
    if (e.origin !== location.origin || e.source !== parent) return;
    const p = parseBotPreview(e.data);
    if (!p) return;
    if (p.accent) document.documentElement.style.setProperty("--accent", p.accent);
    $("title").textContent = p.sender.name || "Bot";
    const fresh = p.run !== run;
    run = p.run;
    ctx.store = new Store();
    ctx.store.setParts(CONVERSATION, partsOf(p));
    if (fresh || !view) view = openThread(ctx, $("main"), $("foot"), CONVERSATION);
    else view.update();
    $("foot").hidden = p.done;
  });
  const ready: FromPreview = { tag: TAG, type: "preview-ready" };
  if (parent !== window) parent.postMessage(ready, location.origin);
}

/** The lines as the visitor's thread holds parts: the bot's from its sender, buttons and questions on the last. */
function partsOf(p: BotPreview): Part[] {
  const at = Math.floor(Date.now() / 1000);
  return p.lines.map((l, i): Part => {
    const base = {
      // Unique per run: the thread keeps a question's field while the same part stays last.
      id: p.run * 10_000 + i + 1,
      conversation: CONVERSATION,
      created: at,
      body: l.text,
      attachments: [],
      read: true,
    } satisfies Partial<Part>;
    if (l.from === "visitor") return { ...base, type: "reply_user", from: { kind: "user" } };
    const last = i === p.lines.length - 1;
    return {
      ...base,
      type: "reply_admin",
      from: { kind: "admin", id: 0, name: p.sender.name, avatar: p.sender.avatar },
      ...(last && l.buttons?.length
        ? { actions: l.buttons.map((b) => ({ type: "button" as const, body: b })) }
        : {}),
      ...(last && l.ask ? { ask: l.ask } : {}),
    };
  });
}
