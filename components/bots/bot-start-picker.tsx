"use client";

import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { UserText } from "@/components/ui/user-text";
import { useBotTemplates } from "@/lib/client/use-bot-templates";
import { KIND_LABEL, WHEN_LABEL } from "./bot-format";
import { scratchForm, templateForm, type BotForm } from "./bot-form-state";

const card = "flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm";

/** A new bot's first choice: one of the app's templates (GET bot_templates), or nothing. */
export function BotStartPicker({ appId, onPick }: { appId: string; onPick: (form: BotForm) => void }) {
  const q = useBotTemplates(appId);
  return (
    <section aria-labelledby="bot-start-title" className="space-y-4">
      <div>
        <h2 id="bot-start-title" className="text-base font-semibold text-slate-900">
          How do you want to start?
        </h2>
        <p className="text-sm text-slate-600">
          A template gives you steps to adapt; you can change everything before saving.
        </p>
      </div>
      {q.isPending && <Spinner label="Loading the templates" />}
      {q.isError && (
        <div className="space-y-2">
          <ErrorAlert error={q.error} title="Can’t load the templates" />
          <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
            Try again
          </Button>
        </div>
      )}
      <ul className="grid gap-4 md:grid-cols-3">
        {q.data?.map((t) => {
          const form = templateForm(t);
          const when = form ? WHEN_LABEL[form.when] : null;
          return (
            <li key={t.key} className={card}>
              <h3 className="font-semibold text-slate-900">
                <UserText>{t.name}</UserText>
              </h3>
              <p className="flex-1 text-sm text-slate-700">
                <UserText>{t.description}</UserText>
              </p>
              <p className="text-xs text-slate-600">
                {KIND_LABEL[t.kind]}
                {when && ` · starts: ${when.toLowerCase()}`}
              </p>
              <Button
                variant="secondary"
                className="self-start"
                disabled={!form}
                onClick={() => form && onPick(form)}
              >
                Start from {t.name}
              </Button>
            </li>
          );
        })}
        <li className={card}>
          <h3 className="font-semibold text-slate-900">From scratch</h3>
          <p className="flex-1 text-sm text-slate-700">
            One empty step; you choose the kind, the start and the rest.
          </p>
          <Button variant="secondary" className="self-start" onClick={() => onPick(scratchForm())}>
            Start from scratch
          </Button>
        </li>
      </ul>
    </section>
  );
}
