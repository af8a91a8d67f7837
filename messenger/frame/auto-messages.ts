import { ApiError } from "./api";
import type { FrameContext, Messages, View } from "./context";
import type { HostPage, Preview } from "../protocol";
import type { AutoMessage, Conversation, Part, VisitorMessage } from "./types";

/** The server's message with its IDs as numbers (the frame never asks for id_as_string). */
export const frameMessage = (m: VisitorMessage): AutoMessage => ({
  ...m,
  send: Number(m.send),
  message: Number(m.message),
});

/** What the messages need of the frame's controller (app.ts). */
export interface MessagesApp extends FrameContext {
  readonly view: View;
  readonly host: {
    key: string;
    page?: HostPage;
    post(m: { type: "preview"; preview: Preview | null }): void;
  };
  /** The conversations and the open one's parts, read again. */
  reload(): Promise<void>;
}

/** The answer to a reply: the conversation it started and the visitor's part (the API's visitorStartedSchema). */
type Started = { conversation: Conversation; part: Part };

/** How many read sends the frame remembers (a visitor has a handful at a time). */
const READ_KEPT = 100;

/**
 * The chat messages and pop-ups sent to the visitor that it has neither answered nor clicked: loaded on boot and
 * after each reconnect (GET /messages), added live (`messenger_message`). Those on screen while the messenger is
 * open are read (POST …/read, once); the sends read are kept in this frame's storage, so a message seen is not
 * previewed again on the next page. The newest one not read is the launcher's preview. A × hides one for the page
 * session (sessionStorage): closing is not a click.
 */
export class AutoMessages implements Messages {
  private list: AutoMessage[] = [];
  /** Pop-ups whose email field was sent: they thank the visitor until the next load. */
  private thanked = new Set<number>();
  private previewed: number | null = null;
  private kept: { read: Set<number>; dismissed: Set<number> } | undefined;

  constructor(
    private readonly app: MessagesApp,
    private readonly announce: (text: string) => void = announceInFrame,
  ) {}

  /** Newest first, without those hidden. */
  shown(): AutoMessage[] {
    const { dismissed } = this.storage();
    return this.list.filter((m) => !dismissed.has(m.send));
  }

  get(send: number): AutoMessage | undefined {
    return this.shown().find((m) => m.send === send);
  }

  isThanked(send: number): boolean {
    return this.thanked.has(send);
  }

  /** Those not seen yet, for the launcher's count. */
  unread(): number {
    return this.shown().filter((m) => this.isNew(m)).length;
  }

  /** The header of a message's view: its sender's name for a chat message. */
  title(send: number): string {
    const m = this.get(send);
    return (m?.kind === "chat" && m.sender?.name) || "Message";
  }

  async load() {
    const list = await this.app.api.call<VisitorMessage[]>("GET", "/messages").catch(() => undefined);
    if (!list) return;
    this.list = list.map(frameMessage).sort((a, b) => b.send - a.send);
    this.changed();
  }

  /** A message sent live (a replay after a reconnect may bring one again). */
  add(m: AutoMessage) {
    if (this.list.some((x) => x.send === m.send)) return;
    this.list = [m, ...this.list].sort((a, b) => b.send - a.send);
    const from = m.kind === "chat" ? m.sender?.name : m.title;
    this.announce(`${from ? `${from}: ` : ""}${m.body}`);
    this.changed();
  }

  /** The launcher's preview was opened (the messenger opens on the message) or closed. */
  fromPreview(send: number, action: "open" | "dismiss") {
    if (action === "dismiss") this.dismiss(send);
    else if (this.get(send)) this.app.go({ name: "message", send });
  }

  dismiss(send: number) {
    const { dismissed } = this.storage();
    dismissed.add(send);
    save(() => sessionStorage, this.storageKey("dismissed"), dismissed);
    this.leaveIfGone(send);
    this.changed();
  }

  /**
   * What is on screen while the messenger is open counts as read (home shows every message, a message's view its
   * own); the newest message not read becomes the launcher's preview. Run on every change and by the controller's
   * markRead (the messenger opened, another view).
   */
  sync() {
    const { read } = this.storage();
    const v = this.app.view;
    if (this.app.visible && (v.name === "home" || v.name === "message")) {
      const seen = this.shown().filter((m) => !read.has(m.send) && (v.name === "home" || v.send === m.send));
      for (const m of seen) {
        read.add(m.send);
        void this.app.api.call("POST", `/messages/${m.send}/read`).catch(() => undefined);
      }
      if (seen.length) save(() => localStorage, this.storageKey("read"), read);
    }
    const next = this.shown().find((m) => this.isNew(m)) ?? null;
    if ((next?.send ?? null) === this.previewed) return;
    this.previewed = next?.send ?? null;
    const preview = next && {
      send: next.send,
      kind: next.kind,
      sender: next.sender,
      title: next.title,
      body: next.body,
    };
    this.app.host.post({ type: "preview", preview });
  }

  /**
   * The visitor's answer (a chat message's composer, a pop-up's reply button): the conversation it starts, with the
   * message as the operator's first part, opens as any other.
   */
  async reply(send: number, body: string) {
    const randomId = crypto.getRandomValues(new Uint32Array(1))[0]!;
    let started: Started;
    try {
      started = await this.app.api.call<Started>("POST", `/messages/${send}/reply`, {
        body,
        random_id: randomId,
        referrer: this.app.host.page?.url ?? "",
      });
    } catch (err) {
      // Answered or gone meanwhile (another tab): it leaves the list.
      if (err instanceof ApiError && err.status === 404) this.remove(send);
      throw err;
    }
    this.list = this.list.filter((m) => m.send !== send);
    this.sync();
    this.app.store.upsertConversation(started.conversation);
    this.app.store.addPart(started.part);
    this.app.go({ name: "thread", conversation: started.conversation.id });
    this.app.emit("conversation_started", { id: started.conversation.id });
    // The message's own part, which only the conversation's parts give.
    await this.app.reload();
  }

  /** A pop-up's link button (the link opens by itself) or its email field, which sets the visitor's $email. */
  async click(send: number, email?: string) {
    await this.app.api.call("POST", `/messages/${send}/click`, email === undefined ? {} : { email });
    // A click is a read too.
    this.storage().read.add(send);
    if (email === undefined) this.remove(send);
    else {
      this.thanked.add(send);
      this.app.visitor = { ...this.app.visitor, email, anonymous: false };
      this.changed();
    }
  }

  private remove(send: number) {
    this.list = this.list.filter((m) => m.send !== send);
    this.leaveIfGone(send);
    this.changed();
  }

  /** A message's view whose message is gone goes home. */
  private leaveIfGone(send: number) {
    const v = this.app.view;
    if (v.name === "message" && v.send === send) this.app.go({ name: "home" });
  }

  private isNew(m: AutoMessage): boolean {
    return !this.storage().read.has(m.send) && !this.thanked.has(m.send);
  }

  private changed() {
    this.sync();
    this.app.store.changed();
  }

  private storageKey(what: "read" | "dismissed") {
    return `relay:${this.app.host.key}:messages-${what}`;
  }

  /** Read once, on first use: the controller's host is not known yet when this is constructed. */
  private storage() {
    this.kept ??= {
      read: load(() => localStorage, this.storageKey("read")),
      dismissed: load(() => sessionStorage, this.storageKey("dismissed")),
    };
    return this.kept;
  }
}

function load(storage: () => Storage, key: string): Set<number> {
  try {
    const ids = JSON.parse(storage().getItem(key) ?? "[]") as unknown;
    return new Set(Array.isArray(ids) ? ids.filter((x): x is number => typeof x === "number") : []);
  } catch {
    // No storage (a browser's third-party rules) or a damaged value: nothing kept.
    return new Set();
  }
}

function save(storage: () => Storage, key: string, ids: Set<number>) {
  try {
    storage().setItem(key, JSON.stringify([...ids].slice(-READ_KEPT)));
  } catch {
    // Kept in memory for this page, then.
  }
}

function announceInFrame(text: string) {
  const el = document.getElementById("announce");
  if (el) el.textContent = text;
}
