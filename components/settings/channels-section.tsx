"use client";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useChannels } from "@/lib/client/use-channels";
import { ErrorAlert } from "@/components/ui/error-alert";
import { SectionCard } from "./section-card";

export function ChannelsSection({ appId }: { appId: string }) {
  const channels = useChannels(appId);
  return (
    <SectionCard
      title="Channels"
      titleId="channels-title"
      description="Where conversations arrive, with the open ones waiting for someone."
    >
      {channels.isPending ? (
        <Spinner label="Loading channels" />
      ) : channels.isError ? (
        <div className="space-y-3">
          <ErrorAlert error={channels.error} title="Can’t load the channels" />
          <Button variant="secondary" size="sm" onClick={() => void channels.refetch()}>
            Try again
          </Button>
        </div>
      ) : channels.data.length === 0 ? (
        <p className="text-sm text-slate-600">No channels yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full text-left text-sm" data-testid="channels-table">
            <thead className="text-xs text-slate-600">
              <tr className="border-b border-slate-200">
                <th scope="col" className="py-2 pr-4 font-medium">
                  Name
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Type
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Unassigned
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Unread
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {channels.data.map((c) => (
                <tr key={String(c.id)}>
                  <td className="py-2 pr-4 font-medium text-slate-900">{c.name || `Channel ${c.id}`}</td>
                  <td className="py-2 pr-4 text-slate-700">{c.type}</td>
                  <td className="py-2 pr-4 text-right tabular-nums text-slate-800">{c.not_assigned_count}</td>
                  <td className="py-2 text-right tabular-nums text-slate-800">{c.not_read_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SectionCard>
  );
}
