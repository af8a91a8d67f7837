"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { UserText } from "@/components/ui/user-text";
import type { SavedReply } from "@/lib/saved-replies/schemas";
import { useCreateSavedReply } from "@/lib/client/saved-replies/use-create-saved-reply";
import { useDeleteSavedReply } from "@/lib/client/saved-replies/use-delete-saved-reply";
import { useSavedReplies } from "@/lib/client/saved-replies/use-saved-replies";
import { useUpdateSavedReply } from "@/lib/client/saved-replies/use-update-saved-reply";
import { ConfirmAction } from "./confirm-action";
import { ErrorAlert } from "@/components/ui/error-alert";
import { SavedReplyForm } from "./saved-reply-form";
import { SectionCard } from "./section-card";

export function SavedRepliesSection({ appId }: { appId: string }) {
  const replies = useSavedReplies(appId);
  const create = useCreateSavedReply(appId);
  return (
    <div className="space-y-6">
      <SectionCard
        title="New saved reply"
        titleId="new-saved-reply-title"
        description="Answers the team gives often. In the composer, type / to pick one."
      >
        <SavedReplyForm
          pending={create.isPending}
          error={create.error}
          onSubmit={(input, done) => create.mutate(input, { onSuccess: done })}
        />
      </SectionCard>
      <SectionCard
        title="Saved replies"
        titleId="saved-replies-title"
        actions={replies.isFetching && !replies.isPending ? <Spinner label="Refreshing" /> : undefined}
      >
        {replies.isPending ? (
          <Spinner label="Loading saved replies" />
        ) : replies.isError ? (
          <div className="space-y-3">
            <ErrorAlert error={replies.error} title="Can’t load the saved replies" />
            <Button variant="secondary" size="sm" onClick={() => void replies.refetch()}>
              Try again
            </Button>
          </div>
        ) : replies.data.length === 0 ? (
          <p className="text-sm text-slate-600">No saved replies yet.</p>
        ) : (
          <SavedReplyList appId={appId} replies={replies.data} />
        )}
      </SectionCard>
    </div>
  );
}

function SavedReplyList({ appId, replies }: { appId: string; replies: SavedReply[] }) {
  const update = useUpdateSavedReply(appId);
  const remove = useDeleteSavedReply(appId);
  const [editing, setEditing] = useState<string | null>(null);
  const removingId = remove.isPending ? remove.variables : null;
  return (
    <div className="space-y-3">
      <ErrorAlert error={remove.error} title="Could not delete the saved reply" />
      <ul className="divide-y divide-slate-200" aria-label="Saved replies">
        {replies.map((r) => {
          const id = String(r.id);
          return (
            <li key={id} data-testid="saved-reply-row" className="py-3 first:pt-0 last:pb-0">
              {editing === id ? (
                <SavedReplyForm
                  reply={r}
                  pending={update.isPending}
                  error={update.error}
                  onCancel={() => setEditing(null)}
                  onSubmit={(input) => update.mutate({ id, ...input }, { onSuccess: () => setEditing(null) })}
                />
              ) : (
                <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
                  <div className="min-w-0 space-y-1">
                    <p className="flex flex-wrap items-baseline gap-2">
                      <code className="rounded bg-slate-100 px-1.5 py-0.5 text-sm text-slate-800">
                        /{r.shortcut}
                      </code>
                      <UserText className="font-medium text-slate-900">{r.title}</UserText>
                    </p>
                    <p className="line-clamp-3 text-sm whitespace-pre-wrap text-slate-600">{r.body}</p>
                  </div>
                  <div className="flex shrink-0 gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Edit /${r.shortcut}`}
                      onClick={() => {
                        update.reset();
                        setEditing(id);
                      }}
                    >
                      Edit
                    </Button>
                    <ConfirmAction
                      label="Delete"
                      accessibleName={`Delete /${r.shortcut}`}
                      question={`Delete /${r.shortcut}?`}
                      confirmLabel="Delete"
                      pending={removingId === id}
                      onConfirm={() => remove.mutate(id)}
                    />
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
