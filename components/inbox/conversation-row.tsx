import { cn } from "@/components/ui/cn";
import type { Conversation } from "@/lib/client/inbox/types";
import { ROW_SHORTCUTS } from "@/lib/client/inbox/use-inbox-shortcuts";
import { UserText } from "@/components/ui/user-text";
import { Time } from "@/components/ui/time";
import { PRESENCE_DOT, PRESENCE_LABEL, preview, visitorName } from "./format";

export const ROW_HEIGHT = 96;

interface RowProps {
  conversation: Conversation;
  selected: boolean;
  meId: string;
  onSelect: (id: string) => void;
  /** Picked for a bulk action (the row's checkbox). */
  checked: boolean;
  /** `range`: a shift-click, from the last row picked to this one. */
  onCheck: (id: string, range: boolean) => void;
}

/** A row: its checkbox, and the conversation as a button; on the focused row Space or x toggles the checkbox. */
export function ConversationRow(props: RowProps) {
  const id = String(props.conversation.id);
  const name = visitorName(props.conversation.user, undefined);
  return (
    <div
      className={cn("flex h-full w-full", props.checked ? "bg-brand-50" : "bg-white")}
      onKeyDown={(e) => {
        // The checkbox answers Space itself.
        if (e.target instanceof HTMLInputElement) return;
        if (ROW_SHORTCUTS.check.keys.includes(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
          e.preventDefault();
          props.onCheck(id, e.shiftKey);
        }
      }}
    >
      <label className="flex shrink-0 cursor-pointer items-start border-b border-slate-200 py-3 pl-3">
        <input
          type="checkbox"
          className="size-4 accent-brand-600"
          data-testid="row-check"
          aria-label={`Select conversation with ${name}`}
          checked={props.checked}
          onChange={() => undefined}
          onClick={(e) => props.onCheck(id, e.shiftKey)}
        />
      </label>
      <RowButton {...props} />
    </div>
  );
}

function RowButton({ conversation: c, selected, checked, meId, onSelect }: RowProps) {
  const name = visitorName(c.user, undefined);
  const presence = c.user?.presence ?? "offline";
  const unread = c.unread_parts_count;
  return (
    <button
      type="button"
      data-testid="conversation-row"
      data-conversation-id={String(c.id)}
      aria-current={selected ? "true" : undefined}
      onClick={() => onSelect(String(c.id))}
      className={cn(
        "flex h-full min-w-0 flex-1 flex-col gap-1 border-b border-slate-200 py-2.5 pr-4 pl-3 text-left",
        "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600",
        selected || checked ? "bg-brand-50" : "bg-white hover:bg-slate-50",
      )}
    >
      <span className="flex w-full items-center gap-2">
        <span
          className={cn("size-2 shrink-0 rounded-full", PRESENCE_DOT[presence] ?? PRESENCE_DOT.offline)}
          title={PRESENCE_LABEL[presence] ?? presence}
          aria-hidden="true"
        />
        <span className="sr-only">{PRESENCE_LABEL[presence] ?? presence},</span>
        <span
          className={cn(
            "min-w-0 flex-1 truncate text-sm",
            unread ? "font-semibold text-slate-900" : "text-slate-800",
          )}
          data-testid="row-visitor"
        >
          <UserText>{name}</UserText>
        </span>
        <Time className="shrink-0 text-xs text-slate-500" seconds={c.last_update} short />
      </span>
      <span className="flex w-full items-center gap-2">
        <span className="min-w-0 flex-1 truncate text-sm text-slate-600" data-testid="row-preview">
          <UserText>{preview(c, meId)}</UserText>
        </span>
        {unread > 0 && (
          <span
            className="shrink-0 rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
            data-testid="row-unread"
          >
            {unread}
            <span className="sr-only"> unread</span>
          </span>
        )}
      </span>
      <span className="flex w-full items-center gap-1.5 overflow-hidden text-xs">
        {c.tags.slice(0, 3).map((t) => (
          <span key={t} className="max-w-24 truncate rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">
            <UserText>{t}</UserText>
          </span>
        ))}
        {c.tags.length > 3 && <span className="text-slate-500">+{c.tags.length - 3}</span>}
        <span className="ml-auto truncate text-slate-500" data-testid="row-assignee">
          {c.assignee ? (
            String(c.assignee.id) === meId ? (
              "You"
            ) : (
              <UserText>{c.assignee.name}</UserText>
            )
          ) : (
            "Unassigned"
          )}
        </span>
      </span>
    </button>
  );
}
