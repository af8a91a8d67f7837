"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cn } from "@/components/ui/cn";
import { isApiClientError } from "@/lib/client/api";
import type { SavedReply } from "@/lib/saved-replies/schemas";
import { SAVED_REPLY_BODY_MAX, SAVED_REPLY_TITLE_MAX } from "@/lib/saved-replies/schemas";
import type { SavedReplyInput } from "@/lib/client/saved-replies/use-create-saved-reply";
import { ErrorAlert } from "@/components/ui/error-alert";

/** Create (no `reply`) or edit a saved reply; the server checks the shortcut, and its words are shown per field. */
export function SavedReplyForm({
  reply,
  onSubmit,
  onCancel,
  pending,
  error,
}: {
  reply?: SavedReply;
  onSubmit: (input: SavedReplyInput, done: () => void) => void;
  onCancel?: () => void;
  pending: boolean;
  error: unknown;
}) {
  const [shortcut, setShortcut] = useState(reply?.shortcut ?? "");
  const [title, setTitle] = useState(reply?.title ?? "");
  const [body, setBody] = useState(reply?.body ?? "");
  const fields = isApiClientError(error) ? error.fields : {};
  const label = reply ? `Edit /${reply.shortcut}` : "New saved reply";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ shortcut: shortcut.trim(), title: title.trim(), body }, () => {
      if (reply) return;
      setShortcut("");
      setTitle("");
      setBody("");
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={label}>
      <div className="grid gap-4 md:grid-cols-[12rem_1fr]">
        <Field label="Shortcut" hint="Type / and this in the composer." error={fields.shortcut}>
          {(control) => (
            <Input
              {...control}
              value={shortcut}
              onChange={(e) => setShortcut(e.target.value)}
              maxLength={33}
              autoComplete="off"
              placeholder="refund"
            />
          )}
        </Field>
        <Field label="Title" error={fields.title}>
          {(control) => (
            <Input
              {...control}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              maxLength={SAVED_REPLY_TITLE_MAX}
              autoComplete="off"
            />
          )}
        </Field>
      </div>
      <Field
        label="Reply"
        hint={
          <>
            <code>{"{{visitor_name}}"}</code> and <code>{"{{operator_name}}"}</code> are filled in when
            inserted; a fallback for an unknown name: <code>{"{{visitor_name|there}}"}</code>.
          </>
        }
        error={fields.body}
      >
        {(control) => (
          <textarea
            id={control.id}
            aria-describedby={control["aria-describedby"]}
            aria-invalid={control["aria-invalid"]}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            maxLength={SAVED_REPLY_BODY_MAX}
            rows={4}
            className={cn(
              "block w-full resize-y rounded-lg bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset",
              "hover:ring-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none",
            )}
          />
        )}
      </Field>
      <ErrorAlert
        error={error}
        title={reply ? "Could not save the changes" : "Could not create the saved reply"}
      />
      <div className="flex gap-2">
        <Button type="submit" loading={pending}>
          {reply ? "Save changes" : "Add saved reply"}
        </Button>
        {onCancel && (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
