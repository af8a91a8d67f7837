"use client";

import { EmailBounceNote } from "@/components/panel/email-bounce-note";
import Link from "next/link";
import { Avatar } from "@/components/panel/avatar";
import { userAvatarUrl } from "@/components/panel/user-avatar";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";
import { useLeadsListHref } from "@/lib/client/leads-return";
import { useLeadsLive } from "@/lib/client/use-leads-live";
import { useUser } from "@/lib/client/use-user";
import { UserText } from "@/components/ui/user-text";
import { claimedUserIdOf, leadName, PRESENCE_LABEL, presenceClass } from "../format";
import { CardEvents } from "./card-events";
import { CardProps } from "./card-props";
import { CardConversations, CardNotes, CardSegments, CardTags } from "./card-side";
import { CardRatings } from "./card-ratings";

export function UserCardView({ userId }: { userId: string }) {
  const user = useUser(userId);
  const listHref = useLeadsListHref();
  const u = user.data;
  useLeadsLive(u ? String(u.app) : "", u ? userId : undefined);

  if (user.isPending) {
    return (
      <p className="flex items-center gap-2 p-8 text-sm text-slate-600">
        <Spinner label="Loading the user" /> Loading…
      </p>
    );
  }
  if (!u) return <ErrorAlert className="m-6" error={user.error} title="Could not load this user" />;
  const name = leadName(u.props, u.id);
  const email = typeof u.props.$email === "string" ? u.props.$email : null;
  const phone = typeof u.props.$phone === "string" ? u.props.$phone : null;
  const claimed = claimedUserIdOf(u.props_sources);
  const avatar = userAvatarUrl(u.props, u.props_sources);
  return (
    <>
      <header className="border-b border-slate-200 bg-white px-6 py-5 md:px-8">
        <Link
          prefetch={false}
          href={listHref}
          className="text-sm text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          ← All leads
        </Link>
        <div className="mt-3 flex flex-wrap items-center gap-4">
          <Avatar name={name} src={avatar} className="size-14 text-lg" />
          <div className="min-w-0">
            <h1 className="truncate text-xl font-semibold text-slate-900">
              <UserText>{name}</UserText>
            </h1>
            <p className="flex flex-wrap gap-x-3 text-sm text-slate-600">
              {email && (
                <a href={`mailto:${email}`} className="hover:underline">
                  <UserText>{email}</UserText>
                </a>
              )}
              {phone && <UserText>{phone}</UserText>}
              {u.user_id && (
                <span>
                  User ID: <UserText className="font-mono">{u.user_id}</UserText>
                </span>
              )}
              {claimed && (
                <span title="The visitor's page passed this ID without the hash your server signs it with: it is not proof, and it links the visitor to nobody.">
                  Claims user ID <UserText className="font-mono">{claimed}</UserText> (unverified)
                </span>
              )}
              {u.email_status === "unsubscribed" && (
                <span className="text-amber-700" data-testid="email-unsubscribed">
                  Unsubscribed from email
                </span>
              )}
              <EmailBounceNote address={email} className="text-red-700" />
            </p>
          </div>
          <div className="ml-auto flex items-center gap-2 text-sm">
            <span
              className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1"
              data-testid="presence"
            >
              <span className={cn("size-2 rounded-full", presenceClass(u.presence))} aria-hidden="true" />
              {PRESENCE_LABEL[u.presence] ?? u.presence}
            </span>
            <span className="rounded-full bg-brand-50 px-2.5 py-1 text-brand-800">
              {u.user_id ? "User" : "Lead"}
            </span>
          </div>
        </div>
        {u.presence_details.page_url && u.presence !== "offline" && (
          <p className="mt-2 truncate text-sm text-slate-600">
            On <UserText>{u.presence_details.page_title || u.presence_details.page_url}</UserText>
          </p>
        )}
      </header>
      <div className="grid gap-6 p-4 md:p-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-8 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <CardProps user={u} />
          <CardEvents user={u} />
        </div>
        <div className="space-y-4">
          <CardConversations user={u} />
          <CardRatings appId={String(u.app)} userId={userId} />
          <CardTags user={u} />
          <CardSegments user={u} />
          <CardNotes user={u} />
        </div>
      </div>
    </>
  );
}
