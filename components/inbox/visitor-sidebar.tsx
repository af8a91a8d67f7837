"use client";

import { EmailBounceNote } from "@/components/panel/email-bounce-note";
import Link from "next/link";
import { useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { leadCardHref } from "@/lib/client/inbox/paths";
import type { UserShort } from "@/lib/client/leads-types";
import { useAddUserNote } from "@/lib/client/use-add-user-note";
import { useUser } from "@/lib/client/use-user";
import { useUserConversations } from "@/lib/client/use-user-conversations";
import { useUserEvents } from "@/lib/client/use-user-events";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { formatValue } from "@/components/leads/format";
import { Time } from "@/components/ui/time";
import { PRESENCE_DOT, PRESENCE_LABEL, visitorName } from "./format";

/** The sidebar shows the newest few of what the shared (Leads card) queries load. */
const RECENT_EVENTS = 8;
const OTHER_CONVERSATIONS = 10;

const KEY_PROPS = ["$country", "$city", "$sessions", "$last_seen", "$initial_referrer"] as const;
const PROP_LABEL: Record<string, string> = {
  $country: "Country",
  $city: "City",
  $sessions: "Sessions",
  $last_seen: "Last seen",
  $initial_referrer: "Referrer",
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-b border-slate-200 px-4 py-3">
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h3>
      {children}
    </section>
  );
}

const show = formatValue;

interface SidebarProps {
  user: UserShort;
  conversationId: string;
  onOpen: (id: string) => void;
  className?: string;
}

export function VisitorSidebar({ user, conversationId, onOpen, className }: SidebarProps) {
  const userId = String(user.id);
  const detail = useUser(userId);
  const events = useUserEvents(userId, "");
  const recentEvents = events.data?.pages[0]?.slice(0, RECENT_EVENTS);
  const others = useUserConversations(userId);
  const addNote = useAddUserNote(userId);
  const [note, setNote] = useState("");
  const id = useId();
  const u = detail.data ?? user;
  const presence = u.presence;
  const props = u.props;

  return (
    <aside
      aria-label="Visitor"
      className={cn("overflow-y-auto bg-white", className)}
      data-testid="visitor-sidebar"
    >
      <div className="border-b border-slate-200 px-4 py-3">
        <p className="truncate text-base font-semibold text-slate-900">
          <UserText>{visitorName(u)}</UserText>
        </p>
        <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600">
          <span
            className={cn("size-2 rounded-full", PRESENCE_DOT[presence] ?? PRESENCE_DOT.offline)}
            aria-hidden="true"
          />
          <span data-testid="visitor-presence">{PRESENCE_LABEL[presence] ?? presence}</span>
        </p>
        <dl className="mt-2 space-y-0.5 text-sm">
          <div className="flex gap-2">
            <dt className="w-14 shrink-0 text-slate-500">Email</dt>
            <dd className="min-w-0 text-slate-800">
              <span className="block truncate">
                <UserText>{show(props.$email)}</UserText>
              </span>
              {detail.data?.email_status === "unsubscribed" && (
                <span className="block text-xs text-amber-700" data-testid="email-unsubscribed">
                  Unsubscribed from email
                </span>
              )}
              <EmailBounceNote address={typeof props.$email === "string" ? props.$email : null} />
            </dd>
          </div>
          <div className="flex gap-2">
            <dt className="w-14 shrink-0 text-slate-500">Phone</dt>
            <dd className="min-w-0 truncate text-slate-800">
              <UserText>{show(props.$phone)}</UserText>
            </dd>
          </div>
        </dl>
        <Link
          prefetch={false}
          href={leadCardHref(userId)}
          className="mt-2 inline-block text-sm font-medium text-brand-700 underline hover:text-brand-800"
        >
          Open the lead card
        </Link>
      </div>
      {detail.isError && (
        <p role="alert" className="px-4 py-2 text-sm text-red-700">
          Can’t load the visitor: {detail.error.message}
        </p>
      )}
      <Section title="Details">
        <dl className="space-y-0.5 text-sm">
          {KEY_PROPS.filter((k) => props[k] !== undefined).map((k) => (
            <div key={k} className="flex gap-2">
              <dt className="w-20 shrink-0 text-slate-500">{PROP_LABEL[k]}</dt>
              <dd className="min-w-0 truncate text-slate-800" title={cleanUserText(show(props[k]))}>
                <UserText>{show(props[k])}</UserText>
              </dd>
            </div>
          ))}
          {detail.data?.presence_details?.page_url && (
            <div className="flex gap-2">
              <dt className="w-20 shrink-0 text-slate-500">Page</dt>
              <dd className="min-w-0 truncate text-slate-800">
                <UserText>{detail.data.presence_details.page_url}</UserText>
              </dd>
            </div>
          )}
        </dl>
      </Section>
      {detail.data?.props_custom && Object.keys(detail.data.props_custom).length > 0 && (
        <Section title="Custom properties">
          <dl className="space-y-0.5 text-sm">
            {Object.entries(detail.data.props_custom)
              .slice(0, 30)
              .map(([k, v]) => (
                <div key={k} className="flex gap-2">
                  <dt className="w-24 shrink-0 truncate text-slate-500" title={cleanUserText(k)}>
                    <UserText>{k}</UserText>
                  </dt>
                  <dd className="min-w-0 truncate text-slate-800" title={cleanUserText(show(v))}>
                    <UserText>{show(v)}</UserText>
                  </dd>
                </div>
              ))}
          </dl>
        </Section>
      )}
      <Section title="Tags and segments">
        <ul className="flex flex-wrap gap-1">
          {(detail.data?.tags ?? []).map((t) => (
            <li key={`t-${t}`} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">
              <UserText>{t}</UserText>
            </li>
          ))}
          {(detail.data?.segments ?? []).map((s) => (
            <li key={`s-${s.id}`} className="rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-800">
              <UserText>{s.name}</UserText>
            </li>
          ))}
          {!detail.data?.tags?.length && !detail.data?.segments?.length && (
            <li className="text-sm text-slate-500">None</li>
          )}
        </ul>
      </Section>
      <Section title="Recent events">
        {recentEvents?.length ? (
          <ul className="space-y-0.5 text-sm">
            {recentEvents.map((e) => (
              <li key={String(e.id)} className="flex gap-2">
                <span className="min-w-0 flex-1 truncate text-slate-800">
                  <UserText>{e.type.name}</UserText>
                </span>
                <Time className="shrink-0 text-xs text-slate-500" seconds={e.created} short />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">{events.isPending ? "Loading…" : "No events"}</p>
        )}
      </Section>
      <Section title="Notes">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const body = note.trim();
            if (!body) return;
            addNote.mutate(body, { onSuccess: () => setNote("") });
          }}
        >
          <label htmlFor={`${id}-note`} className="sr-only">
            New note about this visitor
          </label>
          <textarea
            id={`${id}-note`}
            rows={2}
            value={note}
            maxLength={10_000}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Add a note about this visitor"
            className="block w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
          />
          {addNote.isError && (
            <p role="alert" className="mt-1 text-sm text-red-700">
              {addNote.error.message}
            </p>
          )}
          <Button type="submit" size="sm" variant="secondary" className="mt-1.5" loading={addNote.isPending}>
            Add visitor note
          </Button>
        </form>
        <ul className="mt-2 space-y-1.5">
          {(detail.data?.notes ?? []).slice(0, 10).map((n) => (
            <li key={String(n.id)} className="rounded bg-amber-50 px-2 py-1.5 text-sm text-slate-800">
              <p className="break-words whitespace-pre-wrap">{n.body}</p>
              <p className="mt-0.5 text-xs text-slate-500">
                <UserText>{n.admin?.name ?? "Operator"}</UserText> · <Time seconds={n.created} short />
              </p>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Other conversations">
        {(() => {
          const list = (others.data ?? [])
            .slice(0, OTHER_CONVERSATIONS)
            .filter((c) => String(c.id) !== conversationId);
          if (!list.length) return <p className="text-sm text-slate-500">None</p>;
          return (
            <ul className="space-y-0.5 text-sm">
              {list.map((c) => (
                <li key={String(c.id)}>
                  <button
                    type="button"
                    className="w-full truncate text-left text-brand-700 underline hover:text-brand-800"
                    onClick={() => onOpen(String(c.id))}
                  >
                    #{String(c.id)} · {c.closed ? "closed" : "open"} · <Time seconds={c.last_update} short />
                  </button>
                </li>
              ))}
            </ul>
          );
        })()}
      </Section>
    </aside>
  );
}
