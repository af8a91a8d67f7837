import type { Api } from "./api";
import type { View } from "./context";
import type { Store } from "./store";
import type { Conversation, Part } from "./types";

/** What starting a conversation and sending in it need of the frame's controller (app.ts). */
export interface Sender {
  api: Api;
  store: Store;
  host: { page?: { url: string }; emit(name: string, data?: unknown): void };
  go(view: View): void;
}

/**
 * The visitor's message: a reply shows at once (marked as on its way, dropped again if refused); a first message
 * or a file waits for the server's answer. A first message starts the conversation and the view moves into it.
 */
export async function sendMessage(
  app: Sender,
  m: { conversation: number | null; body: string; file?: File; progress?: (f: number) => void },
): Promise<void> {
  const { conversation, body, file } = m;
  const randomId = crypto.getRandomValues(new Uint32Array(1))[0]!;
  const pending: Part | undefined =
    conversation === null || file
      ? undefined
      : {
          id: `r${randomId}`,
          conversation,
          created: Date.now() / 1000,
          type: "reply_user",
          body,
          from: { kind: "user" },
          attachments: [],
          read: false,
          random_id: randomId,
        };
  if (pending) app.store.addPart(pending);
  const fields: Record<string, string> = {
    random_id: String(randomId),
    referrer: app.host.page?.url ?? "",
  };
  if (body) fields.body = body;
  const path = conversation === null ? "/conversations" : `/conversations/${conversation}/reply`;
  try {
    let answer: unknown;
    if (file) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append("attachment", file);
      answer = await app.api.upload(path, form, m.progress ?? (() => undefined));
    } else answer = await app.api.call("POST", path, { ...fields, random_id: randomId });
    if (conversation === null) {
      const started = answer as { conversation: Conversation; part: Part };
      app.store.upsertConversation(started.conversation);
      app.store.addPart(started.part);
      app.go({ name: "thread", conversation: started.conversation.id });
      app.host.emit("conversation_started", { id: started.conversation.id });
    } else app.store.addPart(answer as Part);
  } catch (err) {
    if (pending) app.store.dropPart(pending.conversation, String(pending.id));
    throw err;
  }
}

/**
 * "New conversation": with a launcher bot the bot opens it and its first steps show; otherwise (none for this
 * visitor, or it could not be asked) the empty composer, where the visitor's first message starts it.
 */
export async function newConversation(app: Sender, launcherBot: boolean): Promise<void> {
  if (launcherBot) {
    const r = await app.api
      .call<{ conversation: Conversation | null }>("POST", "/bot_conversations")
      .catch(() => null);
    if (r?.conversation) {
      app.store.upsertConversation(r.conversation);
      app.go({ name: "thread", conversation: r.conversation.id });
      return;
    }
  }
  app.go({ name: "thread", conversation: null });
}
