"use client";

import { ErrorAlert } from "@/components/ui/error-alert";
import { useCsatSettings } from "@/lib/client/use-csat-settings";
import { useUpdateCsatSettings } from "@/lib/client/use-update-csat-settings";
import { SectionCard } from "./section-card";

/** Settings → Messenger: whether visitors are asked to rate the conversations operators close (CSAT). */
export function CsatSetting({ appId }: { appId: string }) {
  const settings = useCsatSettings(appId);
  const update = useUpdateCsatSettings(appId);
  return (
    <SectionCard
      title="Satisfaction ratings"
      titleId="csat-title"
      description="Scores from 1 to 5 and comments, shown in the Inbox, on the lead card and in Reports."
    >
      <div className="space-y-3">
        <label className="flex items-start gap-2.5 text-sm text-slate-800">
          <input
            type="checkbox"
            className="mt-0.5 size-4"
            checked={settings.data?.enabled ?? false}
            disabled={!settings.data}
            // Not `disabled` while saving: that would drop a keyboard user's focus to the page.
            aria-disabled={update.isPending}
            onChange={(e) => {
              if (!update.isPending) update.mutate(e.target.checked);
            }}
          />
          <span>
            <span className="font-medium">Ask visitors to rate closed conversations</span>
            <span className="block text-slate-600">
              When an operator closes a conversation they answered, the visitor gets a rating card in the
              messenger, or an email with one-click scores if they have left. Each conversation is asked once.
            </span>
          </span>
        </label>
        <ErrorAlert error={settings.error} title="Could not load the rating setting" />
        <ErrorAlert error={update.error} title="Could not change the rating setting" />
      </div>
    </SectionCard>
  );
}
