import { Api, boot, deviceId } from "./api";
import { renderMessage } from "./auto-message-view";
import { AutoMessages } from "./auto-messages";
import { awayLine } from "./away";
import type { FrameContext, View } from "./context";
import { fill, h } from "./dom";
import { renderHome } from "./home";
import { newConversation, sendMessage } from "./send";
import { connectLive, type LiveEvent } from "./live";
import { Store } from "./store";
import { openThread } from "./thread";
import { loadRating } from "./rating";
import type { ThreadView } from "./thread-view";
import { TypingThrottle } from "./typing";
import type { Boot, Conversation, Part, TokenPair } from "./types";
import type { HostPage, Preview } from "../protocol";
import type { Heartbeat } from "../../lib/messenger/identity-schemas";

export interface Host {
  key: string;
  origin: string;
  page?: HostPage;
  post(
    m:
      | { type: "unread"; count: number }
      | { type: "appearance"; accent?: string; position?: "left" | "right" }
      | { type: "preview"; preview: Preview | null },
  ): void;
  emit(name: string, data?: unknown): void;
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const HEARTBEAT_MS = 20_000;

/** The frame's controller: boots the visitor, keeps the store live, and draws the current view. */
export class App implements FrameContext {
  api: Api;
  store = new Store();
  messenger!: Boot["messenger"];
  visitor!: Boot["visitor"];
  /** The app has a launcher bot: "New conversation" asks it to open the conversation. */
  launcherBot = false;
  offline = false;
  /** Away outside the app's office hours: when they open next (the heartbeat's opens_at). */
  opensAt: Date | null = null;
  visible = false;
  typing = new Map<number, { name: string; until: number }>();
  live: ReturnType<typeof connectLive> | undefined;
  messages: AutoMessages = new AutoMessages(this);
  view: View = { name: "home" };
  private thread: ThreadView | undefined;
  private typer: { conversation: number; throttle: TypingThrottle } | undefined;
  private unreadSent = -1;
  private booted = false;
  /** The URL of the last page view tracked: the same URL twice in a row is one view. */
  private viewed: string | undefined;

  constructor(readonly host: Host) {
    this.api = new Api(host.key, () => this.boot().then((b) => b as TokenPair));
    this.api.onTokens = () => this.live?.reconnect();
  }

  private async boot(fresh = false): Promise<Boot> {
    const b = await boot(this.host.key, deviceId(this.host.key, fresh), this.host.origin);
    this.messenger = b.messenger;
    this.visitor = b.visitor;
    this.launcherBot = b.launcher_bot;
    return b;
  }

  async start() {
    let b: Boot;
    try {
      b = await this.boot();
    } catch (err) {
      fill(
        $("main"),
        h("p", { class: "notice error", role: "alert" }, "The messenger could not start here."),
      );
      throw err;
    }
    this.api.setTokens(b);
    this.booted = true;
    // Before the home's first render: away, it shows the offline text and email field from the start, not after
    // the first heartbeat moves its controls under the visitor's focus.
    this.offline = !b.operators_online;
    this.opensAt = !b.operators_online && b.opens_at ? new Date(b.opens_at) : null;
    const accent = b.messenger.accent_color;
    document.documentElement.style.setProperty("--accent", accent);
    this.host.post({ type: "appearance", accent, position: b.messenger.position });
    this.host.post({ type: "unread", count: b.unread });
    this.store.subscribe(() => this.render());
    this.live = connectLive(
      this.api,
      (e) => this.onLive(e),
      (up) => up && void this.reload(),
    );
    let saved: View | undefined;
    try {
      saved = JSON.parse(sessionStorage.getItem(`relay:${this.host.key}:view`) ?? "null") as View;
    } catch {
      // None kept.
    }
    // A message's view is not kept: its message may be gone.
    this.go(saved?.name === "thread" ? saved : { name: "home" });
    void this.heartbeat();
    setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    $("back").addEventListener("click", () => this.go({ name: "home" }));
    // Before the site's queued calls (they wait for start): an auth then merges this view into its user.
    if (this.host.page) await this.pageShown(this.host.page);
  }

  /** The conversations, and the open one's parts: after boot and after each (re)connect. */
  async reload() {
    void this.messages.load();
    const list = await this.api.call<Conversation[]>("GET", "/conversations").catch(() => []);
    this.store.setConversations(list);
    if (this.view.name === "thread" && this.view.conversation !== null)
      await this.loadParts(this.view.conversation);
    this.sendUnread();
  }

  /** The conversation an emailed link named (the loader's "conversation"): shown only if it is this visitor's. */
  async openLinked(id: number) {
    if (!this.store.conversations.has(id)) await this.reload();
    if (this.store.conversations.has(id)) this.go({ name: "thread", conversation: id });
  }

  private async loadParts(id: number) {
    const parts = await this.api.call<Part[]>("GET", `/conversations/${id}/parts`).catch(() => []);
    this.store.setParts(id, parts);
    this.markRead();
    void loadRating(this.api, this.store, id);
  }

  go(view: View) {
    const t = this.thread;
    // The first message made the conversation: the same view goes on, its composer and focus kept.
    if (view.name === "thread" && t && t.conversation === null && this.view.name === "thread") {
      t.conversation = view.conversation;
      t.update();
    } else {
      this.thread = undefined;
      if (view.name === "home") renderHome(this, $("main"), $("foot"));
      else if (view.name === "message") renderMessage(this, $("main"), $("foot"), view.send);
      else {
        this.thread = openThread(this, $("main"), $("foot"), view.conversation);
        if (view.conversation !== null && !this.store.hasParts(view.conversation))
          void this.loadParts(view.conversation);
      }
    }
    this.view = view;
    try {
      sessionStorage.setItem(`relay:${this.host.key}:view`, JSON.stringify(view));
    } catch {
      // Not kept over a reload, then.
    }
    $("back").hidden = view.name === "home";
    $("title").textContent = view.name === "home" ? "Messages" : (this.assigneeName() ?? "Conversation");
    this.showStatus();
    if (view.name !== "home") (document.querySelector("textarea") as HTMLElement | null)?.focus();
    this.markRead();
  }

  private assigneeName(): string | undefined {
    if (this.view.name === "message") return this.messages.title(this.view.send);
    const id = this.view.name === "thread" ? this.view.conversation : null;
    return id === null ? undefined : this.store.conversations.get(id)?.assignee?.name;
  }

  private render() {
    if (this.thread) this.thread.update();
    else if (this.view.name === "home") renderHome(this, $("main"), $("foot"));
    this.sendUnread();
  }

  private sendUnread() {
    const n = this.store.unread() + this.messages.unread();
    if (n !== this.unreadSent) this.host.post({ type: "unread", count: (this.unreadSent = n) });
  }

  /** What is shown counts as read: the messages on screen (auto-messages.ts), operators' replies in the open thread. */
  markRead() {
    this.messages.sync();
    this.sendUnread();
    const id = this.view.name === "thread" ? this.view.conversation : null;
    if (id === null || !this.visible || !this.store.conversations.get(id)?.unread) return;
    this.store.markRead(id, "user");
    void this.api.call("POST", `/conversations/${id}/read`).catch(() => undefined);
  }

  private onLive(e: LiveEvent) {
    if (e.type === "messenger_part") {
      const { part } = e;
      if (!this.store.conversations.has(part.conversation)) void this.reload();
      const isNew = this.store.addPart(part, true);
      this.typing.delete(part.conversation);
      if (isNew && part.type === "reply_admin") {
        const c = this.store.conversations.get(part.conversation);
        if (c) c.unread += 1;
        $("announce").textContent = `${part.from.kind === "admin" ? part.from.name : "Reply"}: ${part.body}`;
        this.host.emit("message_received", { conversation: part.conversation, id: part.id, body: part.body });
        this.markRead();
      }
      this.store.changed();
    } else if (e.type === "messenger_typing") {
      this.typing.set(e.conversation, { name: e.admin.name || "The team", until: Date.now() + 5000 });
      this.thread?.update();
      setTimeout(() => this.thread?.update(), 5100);
    } else if (e.type === "messenger_message") this.messages.add(e.message);
    else if (e.type === "messenger_read") this.store.markRead(e.conversation, e.by);
    else if (e.type === "messenger_status") this.setOperators(e.online, e.opensAt);
    else if (e.type === "messenger_rating") this.store.setRating(e.rating);
    else this.store.upsertConversation(e.conversation);
  }

  send(conversation: number | null, body: string, file?: File, progress?: (f: number) => void) {
    if (conversation !== null && this.typer?.conversation === conversation) this.typer.throttle.sent();
    return sendMessage(this, { conversation, body, file, progress });
  }

  newConversation() {
    return newConversation(this, this.launcherBot);
  }

  async quickReply(part: Part, action: number) {
    const answer = await this.api.call<Part>("POST", `/conversations/${part.conversation}/quickreply`, {
      part: part.id,
      action,
    });
    this.store.addPart({ ...part, chosen_action: action }, true);
    this.store.addPart(answer);
  }

  typed(conversation: number, body: string) {
    if (this.typer?.conversation !== conversation) {
      const post = (text: string) =>
        void this.api
          .call("POST", `/conversations/${conversation}/typing`, { body: text.slice(0, 1000) })
          .catch(() => undefined);
      this.typer = { conversation, throttle: new TypingThrottle(post) };
    }
    this.typer.throttle.typed(body);
  }

  /** The host page, at the frame's load or after a single-page site's navigation: a `$page_view`. */
  async pageShown(page: HostPage) {
    this.host.page = page;
    if (!this.booted || page.url === this.viewed) return;
    this.viewed = page.url;
    // The heartbeat tells the new page at once: a message waiting for the visitor to stay on a page checks it.
    void this.heartbeat();
    await this.api.call("POST", "/track", { name: "$page_view", params: page }).catch(() => undefined);
  }

  async saveEmail(email: string) {
    this.visitor = await this.api.call("POST", "/identify", { email, source: "messenger" });
  }

  emit(name: string, data?: unknown) {
    this.host.emit(name, data);
  }

  async heartbeat() {
    const p = this.host.page;
    const r = await this.api
      .call<Heartbeat>("POST", "/heartbeat", {
        ...(p ? { url: p.url, referrer: p.referrer, title: p.title } : {}),
        // Minutes east of UTC, as the users' timezone_offset.
        timezone_offset: -new Date().getTimezoneOffset(),
      })
      // Not served (yet) or offline for a moment: the next beat tries again.
      .catch(() => undefined);
    if (r) this.setOperators(r.operators_online, r.opens_at);
  }

  /** Who can answer: the heartbeat's answer, or a change pushed live (messenger_status). */
  private setOperators(online: boolean, opensAt: string | null) {
    const changed = online === this.offline;
    this.offline = !online;
    this.opensAt = !online && opensAt ? new Date(opensAt) : null;
    // Every beat: "Back tomorrow" becomes "Back today" at midnight.
    this.showStatus();
    // The thread keeps its composer; home shows the offline text and email field at once.
    if (changed && this.view.name === "home") renderHome(this, $("main"), $("foot"));
  }

  /** The header's second line: the reply time, "Away", or when the team is back from outside office hours. */
  private showStatus() {
    const text = !this.offline
      ? this.messenger.reply_time_text
      : this.opensAt
        ? awayLine(this.opensAt)
        : "Away";
    if ($("subtitle").textContent !== text) $("subtitle").textContent = text;
  }
}
