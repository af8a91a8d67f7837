"use client";

import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import type { EmailSettings } from "@/lib/client/settings-types";
import { useEmailSettings } from "@/lib/client/use-email-settings";
import { CopyButton } from "./copy-button";
import { EmailDeliveries } from "./email-deliveries";
import { EmailPaste } from "./email-paste";
import { EmailSettingsForm } from "./email-settings-form";
import { EmailOperatorPrefs } from "./email-operator-prefs";
import { SectionCard } from "./section-card";

/** Settings → Email: how mail goes out and comes in, what the app emails, and what it has emailed. */
export function EmailSection({ appId }: { appId: string }) {
  const settings = useEmailSettings(appId);
  if (settings.isPending)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the email settings…
      </p>
    );
  if (settings.isError)
    return (
      <div className="space-y-3">
        <ErrorAlert error={settings.error} title="Could not load the email settings" />
        <Button variant="secondary" size="sm" onClick={() => void settings.refetch()}>
          Try again
        </Button>
      </div>
    );
  const s = settings.data;
  return (
    <div className="space-y-6">
      <EmailStatus settings={s} />
      <EmailSettingsForm appId={appId} settings={s} />
      <EmailOperatorPrefs operatorEmails={s.operator_emails} />
      <EmailDeliveries appId={appId} />
      <EmailPaste appId={appId} address={s.address} />
    </div>
  );
}

function EmailStatus({ settings }: { settings: EmailSettings }) {
  const { smtp_port: port, http } = settings.inbound;
  return (
    <SectionCard
      title="Sending and receiving"
      titleId="email-status-title"
      description="Where the app's emails go out, and the address visitors write to."
    >
      <div className="space-y-4 text-sm">
        {settings.smtp ? (
          <p className="text-slate-800" data-testid="email-outbound">
            <span aria-hidden="true" className="mr-2 inline-block size-2 rounded-full bg-emerald-500" />
            Emails are sent through SMTP.
          </p>
        ) : (
          <p
            role="note"
            data-testid="email-outbound"
            className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900"
          >
            No SMTP server configured (SMTP_URL): emails are composed and listed below as not sent.
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <span className="font-medium text-slate-600">The app&apos;s address</span>
          <code className="font-mono break-all text-slate-900" data-testid="email-address">
            {settings.address}
          </code>
          <CopyButton value={settings.address} label="Copy address" />
        </div>
        <p className="text-slate-600">
          Mail to this address starts a conversation, and every email the app sends is from it. It reaches the
          app through{" "}
          {port !== null ? (
            <>
              the SMTP listener on port <code className="font-mono text-slate-900">{port}</code>
            </>
          ) : (
            "no SMTP listener (SMTP_INBOUND_PORT is not set)"
          )}
          {" and "}
          {http ? (
            <>
              the HTTP endpoint <code className="font-mono text-slate-900">/api/email/inbound</code>
            </>
          ) : (
            "no HTTP endpoint (INBOUND_EMAIL_SECRET is not set)"
          )}
          . Either way, “Paste an email” below tries it by hand.
        </p>
      </div>
    </SectionCard>
  );
}
