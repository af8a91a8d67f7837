"use client";

import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import type { OperatorEmailPrefs } from "@/lib/client/settings-types";
import { useOperatorEmailPrefs } from "@/lib/client/use-operator-email-prefs";
import { useUpdateOperatorEmailPrefs } from "@/lib/client/use-update-operator-email-prefs";
import { SectionCard } from "./section-card";

const SWITCHES: { key: keyof OperatorEmailPrefs; title: string; hint: string }[] = [
  {
    key: "unread",
    title: "Unread messages",
    hint: "A visitor's message in a conversation assigned to me, or unassigned, that no one read in time.",
  },
  { key: "mention", title: "Mentions", hint: "A teammate @mentions me in a note." },
  { key: "assigned", title: "Assignments", hint: "A conversation is assigned to me." },
];

/** The logged-in operator's own emails: each saved as it is switched, whatever the app. */
export function EmailOperatorPrefs({ operatorEmails }: { operatorEmails: boolean }) {
  const prefs = useOperatorEmailPrefs();
  const update = useUpdateOperatorEmailPrefs();
  return (
    <SectionCard
      title="Emails I get"
      titleId="email-mine-title"
      description={
        operatorEmails
          ? "Answer any of them by replying: your answer goes to the visitor as your reply."
          : "This app sends operators no emails at all (see “What the app emails” above)."
      }
    >
      {prefs.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading…
        </p>
      ) : prefs.isError ? (
        <ErrorAlert error={prefs.error} title="Could not load your email choices" />
      ) : (
        <fieldset className="space-y-3" aria-labelledby="email-mine-title" disabled={!operatorEmails}>
          {SWITCHES.map((s) => (
            <label key={s.key} className="flex items-start gap-2.5 text-sm text-slate-800">
              <input
                type="checkbox"
                className="mt-0.5 size-4"
                checked={prefs.data[s.key]}
                onChange={(e) => update.mutate({ [s.key]: e.target.checked })}
              />
              <span>
                <span className="font-medium">{s.title}</span>
                <span className="block text-slate-600">{s.hint}</span>
              </span>
            </label>
          ))}
          {update.isError && <ErrorAlert error={update.error} title="Could not save your choice" />}
        </fieldset>
      )}
    </SectionCard>
  );
}
