"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { cleanUserText } from "@/components/ui/user-text";
import type { Bot, BotStatus, BotsView } from "@/lib/client/bots-types";
import { useBots } from "@/lib/client/use-bots";
import { botShownIn, useSetBotStatus } from "@/lib/client/use-set-bot-status";
import { BotRow } from "./bot-row";

const DONE: Record<BotStatus, string> = { active: "resumed", paused: "paused", archived: "archived" };
const FAILED: Record<BotStatus, string> = { active: "resume", paused: "pause", archived: "archive" };
const HEADS = ["Started", "Handed over", "Closed", "Taken over"];

/**
 * The app's bots of one status filter. Row actions show at once and are undone, with the server's reason in the
 * row, when refused. A row that leaves the list hands the focus to its neighbour; outcomes are announced.
 */
export function BotsTable({ appId, view }: { appId: string; view: BotsView }) {
  const q = useBots(appId, view);
  const setStatus = useSetBotStatus(appId, view);
  const tableRef = useRef<HTMLTableElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [said, say] = useState("");
  // The row whose name link takes the focus once drawn ("" for the list itself): the acted-on row left the list.
  const [focus, setFocus] = useState<string | null>(null);

  useEffect(() => {
    if (focus === null) return;
    const link = focus
      ? tableRef.current?.querySelector<HTMLElement>(`tr[data-bot-id="${CSS.escape(focus)}"] a`)
      : null;
    (link ?? tableRef.current)?.focus();
    setFocus(null);
  }, [focus, q.data]);

  if (q.isPending) return <Spinner label="Loading bots" />;
  if (q.isError)
    return (
      <div className="space-y-3">
        <ErrorAlert error={q.error} title="Can’t load the bots" />
        <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
          Try again
        </Button>
      </div>
    );
  const rows = q.data;

  const note = (id: string, text: string | null) =>
    setErrors((e) => {
      const { [id]: _gone, ...rest } = e;
      return text === null ? rest : { ...rest, [id]: text };
    });

  const act = (b: Bot, status: BotStatus) => {
    const id = String(b.id);
    const name = cleanUserText(b.name);
    if (!botShownIn(view, status)) {
      const ids = rows.map((r) => String(r.id));
      const at = ids.indexOf(id);
      setFocus(ids[at + 1] ?? ids[at - 1] ?? "");
    }
    note(id, null);
    const verb = view === "archived" ? "restore" : FAILED[status];
    setStatus.mutateAsync({ id, status }).then(
      () => say(`“${name}” ${view === "archived" ? "restored, paused" : DONE[status]}.`),
      (e: unknown) => {
        note(id, `Could not ${verb} it: ${e instanceof Error ? e.message : "please try again"}`);
        say(`Could not ${verb} “${name}”.`);
      },
    );
  };

  return (
    <>
      <p aria-live="polite" className="sr-only">
        {said}
      </p>
      {rows.length === 0 ? (
        <p className="py-8 text-center text-sm text-slate-600">
          {view === "archived"
            ? "No archived bots."
            : "No bots yet. A bot answers a visitor's first message: it asks who they are, or where to send them, then hands over to the team."}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table
            ref={tableRef}
            tabIndex={-1}
            className="w-full text-left text-sm focus-visible:outline-none"
            data-testid="bots-table"
          >
            <caption className="sr-only">
              {view === "archived" ? "Archived bots" : "Active and paused bots"}
            </caption>
            <thead className="bg-slate-50 text-xs text-slate-700">
              <tr>
                {["Name", "Kind", "Status", "Starts"].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
                {HEADS.map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 text-right font-medium">
                    {h}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-800">
              {rows.map((b) => (
                <BotRow
                  key={String(b.id)}
                  b={b}
                  view={view}
                  error={errors[String(b.id)]}
                  onStatus={(status) => act(b, status)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
