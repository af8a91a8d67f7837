"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";
import { isApiClientError } from "@/lib/client/api";
import { WEBHOOK_EVENT_KINDS, type Webhook, type WebhookEventKind } from "@/lib/client/settings-types";
import { useCreateWebhook } from "@/lib/client/use-create-webhook";
import { useWebhooks } from "@/lib/client/use-webhooks";
import { UserText } from "@/components/ui/user-text";
import { CheckboxGroup } from "./checkbox-group";
import { ErrorAlert } from "@/components/ui/error-alert";
import { SecretBox } from "./secret-box";
import { SectionCard } from "./section-card";
import { WebhookDetail } from "./webhook-detail";

export function WebhooksSection({ appId }: { appId: string }) {
  const webhooks = useWebhooks(appId);
  const [created, setCreated] = useState<Webhook | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [showForm, setShowForm] = useState(false);
  const list = webhooks.data ?? [];
  const current = selected !== null && list.some((w) => String(w.id) === selected) ? selected : null;

  return (
    <div className="space-y-6">
      <SectionCard
        title="Webhooks"
        titleId="webhooks-title"
        description="We POST signed JSON to your URL when something happens in this app."
        actions={
          !showForm && (
            <Button size="sm" onClick={() => setShowForm(true)}>
              Add webhook
            </Button>
          )
        }
      >
        {showForm && (
          <div className="mb-5 rounded-lg border border-slate-200 bg-slate-50 p-4">
            <CreateWebhookForm
              appId={appId}
              onCancel={() => setShowForm(false)}
              onCreated={(w) => {
                setCreated(w);
                setSelected(String(w.id));
                setShowForm(false);
              }}
            />
          </div>
        )}
        {created?.secret && (
          <div className="mb-5 space-y-2">
            <SecretBox
              label={`Signing secret for ${created.url}`}
              value={created.secret}
              testId="new-webhook-secret"
              autoFocus
              note={
                <>
                  Verify <code>X-Webhook-Signature</code> (HMAC-SHA256 of <code>timestamp.body</code>) with
                  this secret. You can see it again in the webhook’s details.
                </>
              }
            />
            <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
              Hide the secret
            </Button>
          </div>
        )}

        {webhooks.isPending ? (
          <Spinner label="Loading webhooks" />
        ) : webhooks.isError ? (
          <div className="space-y-3">
            <ErrorAlert error={webhooks.error} title="Can’t load the webhooks" />
            <Button variant="secondary" size="sm" onClick={() => void webhooks.refetch()}>
              Try again
            </Button>
          </div>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-600">No webhooks yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label="Webhook subscriptions">
            {list.map((w) => {
              const id = String(w.id);
              const open = current === id;
              return (
                <li key={id} data-testid="webhook-row" className="py-3 first:pt-0 last:pb-0">
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                    <div className="min-w-0">
                      <p className="truncate font-mono text-sm text-slate-900" title={w.url}>
                        <UserText>{w.url}</UserText>
                      </p>
                      <p className="mt-0.5 text-xs text-slate-500">
                        <span className={cn("font-medium", w.active ? "text-emerald-700" : "text-slate-500")}>
                          {w.active ? "Active" : "Paused"}
                        </span>{" "}
                        · {w.events.length} event {w.events.length === 1 ? "kind" : "kinds"}
                      </p>
                    </div>
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-expanded={open}
                      aria-controls={`webhook-detail-${id}`}
                      aria-label={`${open ? "Hide" : "Show"} details of ${w.url}`}
                      onClick={() => setSelected(open ? null : id)}
                    >
                      {open ? "Hide details" : "Details"}
                    </Button>
                  </div>
                  {open && (
                    <div id={`webhook-detail-${id}`} className="mt-3">
                      <WebhookDetail appId={appId} webhookId={id} onDeleted={() => setSelected(null)} />
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </SectionCard>
    </div>
  );
}

function CreateWebhookForm({
  appId,
  onCreated,
  onCancel,
}: {
  appId: string;
  onCreated: (w: Webhook) => void;
  onCancel: () => void;
}) {
  const create = useCreateWebhook(appId);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventKind[]>([]);
  const [secret, setSecret] = useState("");
  const [local, setLocal] = useState<{ url?: string; events?: string; secret?: string }>({});
  const fields = isApiClientError(create.error) ? create.error.fields : {};

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: typeof local = {};
    if (!/^https?:\/\/\S+$/i.test(url.trim())) problems.url = "Enter an http:// or https:// URL.";
    if (events.length === 0) problems.events = "Choose at least one event kind.";
    if (secret && secret.length < 16) problems.secret = "At least 16 characters, or leave it empty.";
    setLocal(problems);
    if (Object.keys(problems).length) return;
    create.mutate(
      { url: url.trim(), events, secret: secret || undefined },
      { onSuccess: (w) => onCreated(w) },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Add a webhook">
      <h3 className="text-sm font-semibold text-slate-900">Add a webhook</h3>
      <Field label="Endpoint URL" error={local.url ?? fields.url}>
        {(control) => (
          <Input
            {...control}
            type="url"
            inputMode="url"
            placeholder="https://example.com/hooks/relay"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setLocal((l) => ({ ...l, url: undefined }));
            }}
            autoComplete="off"
            autoFocus
          />
        )}
      </Field>
      <CheckboxGroup
        legend="Events"
        name="events"
        options={WEBHOOK_EVENT_KINDS}
        value={events}
        onChange={(next) => {
          setEvents(next);
          setLocal((l) => ({ ...l, events: undefined }));
        }}
        error={local.events ?? fields.events}
      />
      <Field
        label="Signing secret (optional)"
        hint="Leave empty to have one generated (whsec_…)."
        error={local.secret ?? fields.secret}
      >
        {(control) => (
          <Input
            {...control}
            value={secret}
            onChange={(e) => {
              setSecret(e.target.value);
              setLocal((l) => ({ ...l, secret: undefined }));
            }}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
        )}
      </Field>
      <ErrorAlert error={create.error} title="Could not add the webhook" />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={create.isPending}>
          Create webhook
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
