"use client";

import type { EmailSettings } from "@/lib/client/settings-types";
import { useEmailSettings } from "@/lib/client/use-email-settings";
import { CopyButton } from "./copy-button";
import { EmailDeliveries } from "./email-deliveries";
import { EmailPaste } from "./email-paste";
import { EmailSettingsForm } from "./email-settings-form";
import { EmailOperatorPrefs } from "./email-operator-prefs";
import { SectionCard } from "./section-card";
import { SectionQuery } from "./section-query";

/** Settings → Email: how mail goes out and comes in, what the app emails, and what it has emailed. */
export function EmailSection({ appId }: { appId: string }) {
  return (
    <SectionQuery query={useEmailSettings(appId)} what="the email settings">
      {(s) => (
        <div className="space-y-6">
          <EmailStatus settings={s} />
          <EmailSettingsForm appId={appId} settings={s} />
          <EmailOperatorPrefs operatorEmails={s.operator_emails} />
          <EmailDeliveries appId={appId} />
          <EmailPaste appId={appId} address={s.address} />
        </div>
      )}
    </SectionQuery>
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
