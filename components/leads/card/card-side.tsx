"use client";

import Link from "next/link";
import { useState, type ReactNode } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { DEFAULT_FILTER, inboxSearch, isSnoozed, type InboxTab } from "@/lib/client/inbox/filters";
import type { UserCard, UserConversation } from "@/lib/client/leads-types";
import { useAddUserNote } from "@/lib/client/use-add-user-note";
import { useAddUserTag } from "@/lib/client/use-add-user-tag";
import { useDeleteUserNote } from "@/lib/client/use-delete-user-note";
import { useRemoveUserTag } from "@/lib/client/use-remove-user-tag";
import { useStartConversation, type Outreach } from "@/lib/client/use-start-conversation";
import { useUserConversations } from "@/lib/client/use-user-conversations";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { controlClass } from "../condition-row";
import { Time } from "@/components/ui/time";

type ConversationState = Pick<UserConversation, "id" | "closed"> &
  Partial<Pick<UserConversation, "delayed_until">>;

/** The Inbox tab that lists a conversation. */
function inboxTab(c: ConversationState): InboxTab {
  if (c.closed) return "closed";
  const snoozed = isSnoozed({ closed: c.closed, delayed_until: c.delayed_until ?? null }, Date.now() / 1000);
  return snoozed ? "delayed" : "open";
}

const TAB_WORD: Record<InboxTab, string> = { open: "open", delayed: "snoozed", closed: "closed" };

/** The Inbox showing a conversation's thread, on the tab that lists it. */
function inboxHref(c: ConversationState): string {
  return `/inbox${inboxSearch({ ...DEFAULT_FILTER, tab: inboxTab(c), selected: String(c.id) })}`;
}

function Block({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function CardTags({ user }: { user: UserCard }) {
  const userId = String(user.id);
  const add = useAddUserTag(userId);
  const remove = useRemoveUserTag(userId);
  const [tag, setTag] = useState("");
  return (
    <Block id="tags-title" title="Tags">
      <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
        {user.tags.map((t) => (
          <li
            key={t}
            className="inline-flex items-center gap-1 rounded bg-slate-100 py-0.5 pr-0.5 pl-2 text-sm"
          >
            <UserText>{t}</UserText>
            <button
              type="button"
              aria-label={`Remove tag ${cleanUserText(t)}`}
              className="rounded px-1 text-slate-500 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600"
              onClick={() => remove.mutate(t)}
            >
              ✕
            </button>
          </li>
        ))}
        {user.tags.length === 0 && <li className="text-sm text-slate-500">No tags.</li>}
      </ul>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const t = tag.trim();
          if (t && !t.includes(",")) add.mutate(t);
          setTag("");
        }}
      >
        <Input
          aria-label="New tag"
          placeholder="Add a tag"
          className="h-8"
          maxLength={255}
          value={tag}
          onChange={(e) => setTag(e.target.value)}
        />
        <Button type="submit" size="sm" variant="secondary">
          Add
        </Button>
      </form>
      <ErrorAlert error={add.error ?? remove.error} />
    </Block>
  );
}

export function CardSegments({ user }: { user: UserCard }) {
  return (
    <Block id="segments-title" title="Segments">
      {user.segments.length === 0 && <p className="text-sm text-slate-500">In no segment.</p>}
      <ul className="space-y-1 text-sm">
        {user.segments.map((s) => (
          <li key={String(s.id)}>
            <Link
              prefetch={false}
              className="text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
              href={`/leads?segment=${s.id}&filters=${encodeURIComponent(JSON.stringify(s.filters))}`}
            >
              <UserText>{s.name}</UserText>
            </Link>
          </li>
        ))}
      </ul>
    </Block>
  );
}

export function CardNotes({ user }: { user: UserCard }) {
  const userId = String(user.id);
  const add = useAddUserNote(userId);
  const remove = useDeleteUserNote(userId);
  const [body, setBody] = useState("");
  return (
    <Block id="notes-title" title="Notes">
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!body.trim()) return;
          add.mutate(body.trim());
          setBody("");
        }}
      >
        <label htmlFor="new-note" className="sr-only">
          New note
        </label>
        <textarea
          id="new-note"
          rows={2}
          maxLength={10_000}
          placeholder="Write a note for your team…"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          className="block w-full rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        />
        <Button type="submit" size="sm" variant="secondary" disabled={!body.trim()}>
          Add note
        </Button>
      </form>
      <ErrorAlert error={add.error ?? remove.error} />
      <ul className="divide-y divide-slate-100" aria-label="Notes">
        {user.notes.map((n) => (
          <li key={String(n.id)} className="py-2 text-sm">
            <p className="whitespace-pre-wrap text-slate-900">{n.body}</p>
            <p className="mt-0.5 flex items-center gap-2 text-xs text-slate-500">
              <UserText>{n.admin?.name ?? "You"}</UserText> · <Time seconds={n.created} />
              {!String(n.id).startsWith("pending-") && (
                <button
                  type="button"
                  className="ml-auto rounded px-1 text-slate-500 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                  aria-label={`Delete note: ${cleanUserText(n.body.slice(0, 40))}`}
                  onClick={() => remove.mutate(String(n.id))}
                >
                  Delete
                </button>
              )}
            </p>
          </li>
        ))}
      </ul>
    </Block>
  );
}

export function CardConversations({ user }: { user: UserCard }) {
  const userId = String(user.id);
  const conversations = useUserConversations(userId);
  const start = useStartConversation(userId);
  const [kind, setKind] = useState<Outreach>("sendmessage");
  const [body, setBody] = useState("");
  return (
    <Block id="conversations-title" title="Conversations">
      <ErrorAlert error={conversations.error} title="Could not load conversations" />
      {conversations.data?.length === 0 && <p className="text-sm text-slate-500">No conversations yet.</p>}
      <ul className="space-y-1 text-sm">
        {conversations.data?.map((c) => (
          <li key={String(c.id)}>
            <Link
              prefetch={false}
              href={inboxHref(c)}
              className="block truncate rounded px-1 py-0.5 text-brand-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              #{String(c.id)} · {TAB_WORD[inboxTab(c)]} · <Time seconds={c.last_update} />
              {c.reply_last?.body && (
                <>
                  {" — "}
                  <UserText>{c.reply_last.body}</UserText>
                </>
              )}
            </Link>
          </li>
        ))}
      </ul>
      <form
        className="space-y-2 border-t border-slate-100 pt-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!body.trim()) return;
          start.mutate({ kind, body: body.trim() }, { onSuccess: () => setBody("") });
        }}
      >
        <label className="flex items-center gap-2 text-sm text-slate-700">
          New
          <select className={controlClass} value={kind} onChange={(e) => setKind(e.target.value as Outreach)}>
            <option value="sendmessage">message from you</option>
            <option value="startconversation">conversation as the visitor</option>
          </select>
        </label>
        <label htmlFor="outreach-body" className="sr-only">
          Message
        </label>
        <textarea
          id="outreach-body"
          rows={2}
          maxLength={10_000}
          value={body}
          placeholder="Message"
          onChange={(e) => setBody(e.target.value)}
          className="block w-full rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        />
        <Button type="submit" size="sm" loading={start.isPending} disabled={!body.trim()}>
          Send
        </Button>
        <ErrorAlert error={start.error} title="Not sent" />
        {start.data && (
          <p className="text-sm text-emerald-700" role="status">
            Sent.{" "}
            <Link
              prefetch={false}
              className="underline"
              href={inboxHref({ id: start.data.id, closed: false })}
            >
              Open the conversation
            </Link>
          </p>
        )}
      </form>
    </Block>
  );
}
