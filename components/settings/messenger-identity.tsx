"use client";

import { useState } from "react";
import type { MessengerSettings } from "@/lib/client/settings-types";
import { useRotateIdentitySecret } from "@/lib/client/use-rotate-identity-secret";
import { useUpdateMessengerSettings } from "@/lib/client/use-update-messenger-settings";
import { ConfirmAction } from "./confirm-action";
import { ErrorAlert } from "@/components/ui/error-alert";
import { MessengerHashExamples } from "./messenger-hash-examples";
import { SecretBox } from "./secret-box";
import { SectionCard } from "./section-card";

/** Identity verification: whether a user ID needs its hash, the secret that makes hashes, and how to make one. */
export function MessengerIdentity({ appId, settings }: { appId: string; settings: MessengerSettings }) {
  const update = useUpdateMessengerSettings(appId);
  const rotate = useRotateIdentitySecret(appId);
  // Shown once: kept in this component only, gone when the page is left.
  const [secret, setSecret] = useState<string | null>(null);

  return (
    <SectionCard
      title="Identity verification"
      titleId="messenger-identity-title"
      description="Your server signs each logged-in user's ID, so nobody can chat as someone else."
    >
      <div className="space-y-4">
        <label className="flex items-start gap-2.5 text-sm text-slate-800">
          <input
            type="checkbox"
            className="mt-0.5 size-4"
            checked={settings.identity_required}
            // Not `disabled` while saving: that would drop a keyboard user's focus to the page.
            aria-disabled={update.isPending}
            onChange={(e) => {
              if (!update.isPending) update.mutate({ identity_required: e.target.checked });
            }}
          />
          <span>
            <span className="font-medium">Require identity verification</span>
            <span className="block text-slate-600">
              A user ID without a valid hash is refused, and the visitor stays anonymous.
            </span>
          </span>
        </label>
        {!settings.identity_required && (
          <p role="note" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Verification is off: any page, or anyone with your site&apos;s messenger open, can pass any user
            ID. Such an ID is kept only as an unverified label on the visitor. It does not make the visitor
            that user: it never shows them that user&apos;s conversations or data, messages your server sends
            to that user ID do not reach them, and the real user&apos;s verified login is never mixed with it.
          </p>
        )}
        <ErrorAlert error={update.error} title="Could not change identity verification" />

        {secret ? (
          <SecretBox
            label="Identity secret"
            value={secret}
            testId="identity-secret"
            autoFocus
            note="Copy it to your server's configuration now: it is not shown again. Hashes made with the old secret no longer verify."
          />
        ) : (
          <p className="text-sm text-slate-600">
            Identity secret in use:{" "}
            <code className="font-mono text-slate-900">{settings.identity_secret_hint}</code>. It is shown in
            full only when it is made: to set up verification, rotate it here and copy the new one to your
            server.
          </p>
        )}
        <ConfirmAction
          label="Rotate secret"
          confirmLabel="Rotate"
          question="Hashes made with the current secret stop verifying. Rotate?"
          pending={rotate.isPending}
          onConfirm={() => rotate.mutate(undefined, { onSuccess: (s) => setSecret(s.identity_secret) })}
        />
        <ErrorAlert error={rotate.error} title="Could not rotate the secret" />
        <MessengerHashExamples />
      </div>
    </SectionCard>
  );
}
