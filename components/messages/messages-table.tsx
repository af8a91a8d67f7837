"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";
import { cleanUserText } from "@/components/ui/user-text";
import type { Message, MessagesView, MessageStatus } from "@/lib/client/messages-types";
import { useDuplicateMessage } from "@/lib/client/use-duplicate-message";
import { useMessages } from "@/lib/client/use-messages";
import { shownIn, useSetMessageStatus } from "@/lib/client/use-set-message-status";
import { MessageRow } from "./message-row";

const DONE: Record<MessageStatus, string> = { active: "resumed", paused: "paused", archived: "archived" };
const FAILED: Record<MessageStatus, string> = { active: "resume", paused: "pause", archived: "archive" };

/**
 * The app's messages of one status filter. Row actions show at once and are undone, with the server's reason in
 * the row, when refused. A row that leaves the list hands the focus to its neighbour; outcomes are announced.
 */
export function MessagesTable({ appId, view }: { appId: string; view: MessagesView }) {
  const q = useMessages(appId, view);
  const setStatus = useSetMessageStatus(appId, view);
  const duplicate = useDuplicateMessage(appId);
  const tableRef = useRef<HTMLTableElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [said, say] = useState("");
  // The row whose name link takes the focus once drawn ("" for the list itself): the acted-on row left the list.
  const [focus, setFocus] = useState<string | null>(null);

  useEffect(() => {
    if (focus === null) return;
    const link = focus
      ? tableRef.current?.querySelector<HTMLElement>(`tr[data-message-id="${CSS.escape(focus)}"] a`)
      : null;
    (link ?? tableRef.current)?.focus();
    setFocus(null);
  }, [focus, q.data]);

  if (q.isPending) return <Spinner label="Loading messages" />;
  if (q.isError)
    return (
      <div className="space-y-3">
        <ErrorAlert error={q.error} title="Can’t load the messages" />
        <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
          Try again
        </Button>
      </div>
    );
  const rows = q.data;
  const names = new Map(rows.map((m) => [String(m.id), m.name]));

  const note = (id: string, text: string | null) =>
    setErrors((e) => {
      const { [id]: _gone, ...rest } = e;
      return text === null ? rest : { ...rest, [id]: text };
    });

  const act = (m: Message, status: MessageStatus) => {
    const id = String(m.id);
    const name = cleanUserText(m.name);
    if (!shownIn(view, status)) {
      const ids = rows.map((r) => String(r.id));
      const at = ids.indexOf(id);
      setFocus(ids[at + 1] ?? ids[at - 1] ?? "");
    }
    note(id, null);
    const verb = view === "archived" ? "restore" : FAILED[status];
    setStatus.mutateAsync({ id, status }).then(
      () => say(`“${name}” ${view === "archived" ? "restored, paused" : DONE[status]}.`),
      (e: unknown) => {
        const text = `Could not ${verb} it: ${e instanceof Error ? e.message : "please try again"}`;
        note(id, text);
        say(`Could not ${verb} “${name}”.`);
      },
    );
  };

  const copy = (m: Message) => {
    const id = String(m.id);
    const name = cleanUserText(m.name);
    note(id, null);
    duplicate.mutateAsync(m).then(
      (c) =>
        say(
          `Copied as “${cleanUserText(c.name)}”, paused${view === "archived" ? ", in Active and paused" : ""}.`,
        ),
      (e: unknown) => {
        note(id, `Could not duplicate it: ${e instanceof Error ? e.message : "please try again"}`);
        say(`Could not duplicate “${name}”.`);
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
            ? "No archived messages."
            : "No messages yet. A message is sent to users when they do something: visit a page, or an event your site tracks."}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table
            ref={tableRef}
            tabIndex={-1}
            className="w-full text-left text-sm focus-visible:outline-none"
            data-testid="messages-table"
          >
            <caption className="sr-only">
              {view === "archived" ? "Archived messages" : "Active and paused messages"}
            </caption>
            <thead className="bg-slate-50 text-xs text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Name
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Kind
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Trigger
                </th>
                {["Sent", "Read", "Replied", "Goal"].map((h) => (
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
              {rows.map((m) => (
                <MessageRow
                  key={String(m.id)}
                  m={m}
                  view={view}
                  names={names}
                  error={errors[String(m.id)]}
                  onStatus={(status) => act(m, status)}
                  onDuplicate={() => copy(m)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
