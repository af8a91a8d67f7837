"use client";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useMessengerSettings } from "@/lib/client/use-messenger-settings";
import { ErrorAlert } from "@/components/ui/error-alert";
import { MessengerAppearance } from "./messenger-appearance";
import { MessengerIdentity } from "./messenger-identity";
import { MessengerInstall } from "./messenger-install";
import { MessengerOrigins } from "./messenger-origins";

/** Settings → Messenger: what a site owner needs to put the messenger on their site. */
export function MessengerSection({ appId }: { appId: string }) {
  const settings = useMessengerSettings(appId);
  if (settings.isPending)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the messenger settings…
      </p>
    );
  if (settings.isError)
    return (
      <div className="space-y-3">
        <ErrorAlert error={settings.error} title="Could not load the messenger settings" />
        <Button variant="secondary" size="sm" onClick={() => void settings.refetch()}>
          Try again
        </Button>
      </div>
    );
  const s = settings.data;
  return (
    <div className="space-y-6">
      <MessengerInstall appId={appId} settings={s} />
      {/* Each form starts from the stored values and keeps its own edits: saving one leaves the other's alone. */}
      <MessengerAppearance appId={appId} settings={s} />
      <MessengerOrigins appId={appId} settings={s} />
      <MessengerIdentity appId={appId} settings={s} />
    </div>
  );
}
