"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";
import type { DeliveryStatus } from "@/lib/client/settings-types";
import { useDeleteWebhook } from "@/lib/client/use-delete-webhook";
import { useSendTestWebhook } from "@/lib/client/use-send-test-webhook";
import { useUpdateWebhook } from "@/lib/client/use-update-webhook";
import { useWebhook } from "@/lib/client/use-webhook";
import { useWebhookDeliveries } from "@/lib/client/use-webhook-deliveries";
import { UserText } from "@/components/ui/user-text";
import { ConfirmAction } from "./confirm-action";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Time } from "@/components/ui/time";

export function WebhookDetail({
  appId,
  webhookId,
  onDeleted,
}: {
  appId: string;
  webhookId: string;
  onDeleted: () => void;
}) {
  const webhook = useWebhook(appId, webhookId);
  const update = useUpdateWebhook(appId, webhookId);
  const remove = useDeleteWebhook(appId);
  const sendTest = useSendTestWebhook(appId, webhookId);
  const [showSecret, setShowSecret] = useState(false);

  if (webhook.isPending) return <Spinner label="Loading the webhook" />;
  if (webhook.isError) return <ErrorAlert error={webhook.error} title="Can’t load this webhook" />;
  const w = webhook.data;
  const switchId = `webhook-active-${webhookId}`;

  return (
    <div
      className="space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-4"
      data-testid="webhook-detail"
    >
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <div className="flex items-center gap-3">
          <button
            id={switchId}
            type="button"
            role="switch"
            aria-checked={w.active}
            onClick={() => update.mutate({ active: !w.active })}
            className={cn(
              "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
              w.active ? "bg-brand-600" : "bg-slate-300",
            )}
          >
            <span className="sr-only">Active</span>
            <span
              aria-hidden="true"
              className={cn(
                "inline-block size-5 rounded-full bg-white shadow transition-transform",
                w.active ? "translate-x-5.5" : "translate-x-0.5",
              )}
            />
          </button>
          <span className="text-sm text-slate-800" aria-hidden="true">
            {w.active ? "Active: deliveries are sent" : "Paused: nothing is sent"}
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => sendTest.mutate()}
            loading={sendTest.isPending}
          >
            Send test
          </Button>
          <ConfirmAction
            label="Delete"
            accessibleName={`Delete webhook ${w.url}`}
            question="Delete this webhook and its delivery log?"
            confirmLabel="Delete webhook"
            pending={remove.isPending}
            onConfirm={() => remove.mutate(w.id, { onSuccess: onDeleted })}
          />
        </div>
      </div>
      <ErrorAlert error={update.error} title="Could not change the webhook" />
      <ErrorAlert error={sendTest.error} title="Could not send a test" />
      <ErrorAlert error={remove.error} title="Could not delete the webhook" />
      {sendTest.isSuccess && (
        <p role="status" className="text-sm text-slate-700">
          Test delivery queued: watch the log below.
        </p>
      )}

      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-600">URL</dt>
        <dd className="min-w-0 font-mono break-all text-slate-900">
          <UserText>{w.url}</UserText>
        </dd>
        <dt className="font-medium text-slate-600">Events</dt>
        <dd className="flex flex-wrap gap-1">
          {w.events.map((e) => (
            <span
              key={e}
              className="rounded bg-white px-1.5 py-0.5 font-mono text-xs text-slate-700 ring-1 ring-slate-200"
            >
              {e}
            </span>
          ))}
        </dd>
        <dt className="font-medium text-slate-600">Signing secret</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-2">
          <code className="font-mono break-all text-slate-900" data-testid="webhook-secret">
            {showSecret ? w.secret : `${(w.secret ?? "").slice(0, 10)}…`}
          </code>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setShowSecret((s) => !s)}
            aria-pressed={showSecret}
          >
            {showSecret ? "Hide" : "Reveal"}
          </Button>
        </dd>
        <dt className="font-medium text-slate-600">Created</dt>
        <dd className="text-slate-900">
          <Time seconds={w.created} />
        </dd>
      </dl>

      <DeliveryLog appId={appId} webhookId={webhookId} />
    </div>
  );
}

const STATUS_STYLE: Record<DeliveryStatus, string> = {
  succeeded: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  pending: "bg-amber-50 text-amber-800 ring-amber-200",
  failed: "bg-red-50 text-red-700 ring-red-200",
};

function DeliveryLog({ appId, webhookId }: { appId: string; webhookId: string }) {
  const deliveries = useWebhookDeliveries(appId, webhookId);
  const rows = deliveries.data?.pages.flat() ?? [];
  const headingId = `deliveries-${webhookId}`;
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex items-center justify-between gap-3">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          Delivery log
        </h3>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => void deliveries.refetch()}
          loading={deliveries.isFetching && !deliveries.isFetchingNextPage}
        >
          Refresh
        </Button>
      </div>
      {deliveries.isPending ? (
        <Spinner label="Loading deliveries" />
      ) : deliveries.isError ? (
        <ErrorAlert error={deliveries.error} title="Can’t load the delivery log" />
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">
          Nothing delivered yet. Press “Send test” to try the endpoint.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full text-left text-sm" data-testid="delivery-log">
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Event
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Response
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Attempts
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Next try
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Created
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((d) => (
                <tr key={String(d.id)} data-testid="delivery-row" data-status={d.status}>
                  <td className="px-3 py-2 font-mono text-xs whitespace-nowrap text-slate-800">{d.type}</td>
                  <td className="px-3 py-2">
                    <span
                      className={cn(
                        "rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
                        STATUS_STYLE[d.status],
                      )}
                    >
                      {d.status}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-slate-800">
                    {d.response_code ?? "—"}
                    {d.last_error && (
                      <span className="block max-w-xs truncate text-xs text-red-700" title={d.last_error}>
                        {d.last_error}
                      </span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-slate-800">{d.attempts}</td>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-800">
                    <Time seconds={d.next_attempt} />
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-600">
                    <Time seconds={d.created} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.hasNextPage && (
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void deliveries.fetchNextPage()}
          loading={deliveries.isFetchingNextPage}
        >
          Load older deliveries
        </Button>
      )}
    </section>
  );
}
