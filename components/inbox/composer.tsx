"use client";

import { useEffect, useId, useRef, useState, type Ref } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { QuickReplyButton } from "@/lib/client/inbox/types";
import { QuickReplyEditor } from "./quick-reply-editor";
import { SavedReplyList } from "./saved-reply-picker";
import { useSavedReplyPicker, type PlaceholderValues } from "./use-saved-reply-picker";
import { MentionList } from "./mention-list";
import { useMentionPicker } from "./use-mention-picker";

export type ComposerMode = "reply_admin" | "note";

export interface ComposerSend {
  type: ComposerMode;
  body: string;
  actions?: QuickReplyButton[];
  file?: File;
}

/** What the operator wrote and has not sent yet, kept while they look at another conversation. */
export interface ComposerDraft {
  body: string;
  file: File | null;
  buttons: string[] | null;
}

interface ComposerProps {
  appId: string;
  /** What saved replies' placeholders become (the visitor's and this operator's names). */
  placeholders: PlaceholderValues;
  mode: ComposerMode;
  onMode: (m: ComposerMode) => void;
  onSend: (s: ComposerSend) => void;
  /** `note`: typing a note, which operators may see and the visitor never does. */
  onTyping: (body: string, note: boolean) => void;
  textareaRef: Ref<HTMLTextAreaElement>;
  disabled?: boolean;
  /** The draft to start from (the composer is mounted once per conversation). */
  draft?: ComposerDraft;
  /** Told of every change: null when there is nothing left to keep. */
  onDraft?: (draft: ComposerDraft | null) => void;
}

/** Reply or note: Enter sends, Shift+Enter breaks the line; an attachment and quick-reply buttons are optional. */
export function Composer(props: ComposerProps) {
  const { appId, placeholders, mode, onMode, onSend, onTyping, textareaRef, disabled, draft, onDraft } =
    props;
  const [body, setBody] = useState(draft?.body ?? "");
  const [file, setFile] = useState<File | null>(draft?.file ?? null);
  const [buttons, setButtons] = useState<string[] | null>(draft?.buttons ?? null);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const picker = useSavedReplyPicker({ appId, values: placeholders, setBody });
  const note = mode === "note";
  const mention = useMentionPicker({ appId, enabled: note, setBody });
  // The `@handles` naming nobody in the note last refused; sending the same text again sends it.
  const [unmatched, setUnmatched] = useState<{ body: string; handles: string[] } | null>(null);

  useEffect(() => {
    onDraft?.(body || file || buttons ? { body, file, buttons } : null);
  }, [body, file, buttons, onDraft]);
  const id = useId();

  const send = () => {
    const text = body.trim();
    const actions = (buttons ?? [])
      .map((b) => b.trim())
      .filter(Boolean)
      .map((b): QuickReplyButton => ({ type: "quick_reply", body: b }));
    if (!text && !file) {
      setError("Write a message or attach a file.");
      return;
    }
    setError(null);
    // A mention that names nobody is said before sending: a typo would otherwise notify nobody, silently.
    // Warned, not blocked: sending the same note again sends it (it may name someone outside the app on purpose).
    const handles = note ? mention.unmatched(text) : [];
    if (handles.length && unmatched?.body !== text) {
      setUnmatched({ body: text, handles });
      return;
    }
    setUnmatched(null);
    onSend({
      type: mode,
      body: text,
      actions: !note && actions.length ? actions : undefined,
      file: file ?? undefined,
    });
    setBody("");
    picker.close();
    mention.close();
    setFile(null);
    setButtons(null);
    if (fileInput.current) fileInput.current.value = "";
  };

  return (
    <form
      className={cn("border-t border-slate-200 p-3", note ? "bg-amber-50" : "bg-white")}
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      aria-label="Composer"
    >
      <div role="radiogroup" aria-label="Send as" className="mb-2 flex gap-1">
        {(
          [
            ["reply_admin", "Reply"],
            ["note", "Note"],
          ] as const
        ).map(([m, label]) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            onClick={() => onMode(m)}
            className={cn(
              "rounded-md px-2.5 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
              mode === m
                ? m === "note"
                  ? "bg-amber-200 text-amber-950"
                  : "bg-brand-100 text-brand-800"
                : "text-slate-600 hover:bg-slate-100",
            )}
          >
            {label}
          </button>
        ))}
        {note && <span className="ml-2 self-center text-xs text-amber-800">Only operators see notes</span>}
      </div>
      <label htmlFor={`${id}-body`} className="sr-only">
        {note ? "Note" : "Reply"}
      </label>
      <div className="relative">
        <SavedReplyList picker={picker} />
        <MentionList picker={mention} />
        <textarea
          id={`${id}-body`}
          {...picker.inputProps}
          {...mention.inputProps}
          ref={textareaRef}
          data-testid="composer-input"
          value={body}
          rows={3}
          disabled={disabled}
          placeholder={
            note
              ? "Write a note for your team… (/ for saved replies)"
              : "Write a reply… (Enter sends, Shift+Enter for a new line, / for saved replies)"
          }
          onChange={(e) => {
            setBody(e.target.value);
            setError(null);
            picker.track(e.target);
            mention.track(e.target);
            if (e.target.value) onTyping(e.target.value, note);
          }}
          onSelect={(e) => {
            picker.track(e.currentTarget);
            mention.track(e.currentTarget);
          }}
          onBlur={() => picker.close()}
          onKeyDown={(e) => {
            if (mention.onKeyDown(e) || picker.onKeyDown(e)) {
              e.preventDefault();
            } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            } else if (e.key === "Escape") {
              e.currentTarget.blur();
            }
          }}
          aria-describedby={
            error ? `${id}-error` : unmatched?.body === body.trim() && note ? `${id}-mentions` : undefined
          }
          className="block w-full resize-y rounded-lg bg-white px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
        />
      </div>
      {buttons && !note && (
        <div className="mt-2">
          <QuickReplyEditor value={buttons} onChange={setButtons} />
        </div>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      {note && unmatched && unmatched.body === body.trim() && (
        <p
          id={`${id}-mentions`}
          role="alert"
          data-testid="mention-warning"
          className="mt-1 text-sm text-amber-900"
        >
          {unmatched.handles.join(", ")} {unmatched.handles.length === 1 ? "names" : "name"} no operator of
          this app: nobody will be notified. Fix the name, or press Enter again to add the note as it is.
        </p>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          className="peer sr-only"
          data-testid="composer-file"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <label
          htmlFor={`${id}-file`}
          className="inline-flex h-8 cursor-pointer items-center rounded-md px-2.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
        >
          Attach a file
        </label>
        {file && (
          <span className="flex min-w-0 items-center gap-1 rounded bg-slate-100 px-2 py-1 text-xs text-slate-700">
            <span className="max-w-48 truncate">{file.name}</span>
            <button
              type="button"
              aria-label={`Remove ${file.name}`}
              className="px-1"
              onClick={() => {
                setFile(null);
                if (fileInput.current) fileInput.current.value = "";
              }}
            >
              ✕
            </button>
          </span>
        )}
        {!note && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setButtons(buttons ? null : [""])}
            aria-expanded={!!buttons}
          >
            {buttons ? "Remove buttons" : "Add quick replies"}
          </Button>
        )}
        <Button type="submit" size="sm" className="ml-auto" disabled={disabled}>
          {note ? "Add note" : "Send"}
        </Button>
      </div>
    </form>
  );
}
