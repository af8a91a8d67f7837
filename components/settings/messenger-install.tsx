"use client";

import { useEffect, useState } from "react";
import type { MessengerSettings } from "@/lib/client/settings-types";
import { useRotatePublicKey } from "@/lib/client/use-rotate-public-key";
import { ConfirmAction } from "./confirm-action";
import { ErrorAlert } from "@/components/ui/error-alert";
import { SectionCard } from "./section-card";
import { CopyButton } from "./copy-button";
import { installSnippet } from "@/lib/messenger/install-snippet";

/** The snippet a site adds before `</body>` (a queueing stub and the loader), with the app's public key. */
export function MessengerInstall({ appId, settings }: { appId: string; settings: MessengerSettings }) {
  const rotate = useRotatePublicKey(appId);
  // The snippet names this server as the browser reaches it; known only in the browser.
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const snippet = installSnippet(origin, settings.public_key);

  return (
    <SectionCard
      title="Install"
      titleId="messenger-install-title"
      description="Paste this before </body> on every page of your site where visitors may write to you."
    >
      <div className="space-y-3">
        <pre
          data-testid="messenger-snippet"
          aria-label="Install snippet"
          tabIndex={0}
          className="overflow-x-auto rounded-lg bg-slate-900 px-3 py-2.5 font-mono text-xs text-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {snippet}
        </pre>
        <div className="flex flex-wrap items-center gap-3">
          <CopyButton value={snippet} label="Copy snippet" />
          <p className="text-sm text-slate-600">
            Public key <code className="font-mono text-slate-900">{settings.public_key}</code>: safe to embed,
            it is not an API token.
          </p>
        </div>
        <ConfirmAction
          label="Regenerate key"
          confirmLabel="Regenerate"
          question="Pages with the old key stop showing the messenger until their snippet is updated. Regenerate?"
          pending={rotate.isPending}
          onConfirm={() => rotate.mutate()}
        />
        <ErrorAlert error={rotate.error} title="Could not regenerate the key" />
      </div>
    </SectionCard>
  );
}
