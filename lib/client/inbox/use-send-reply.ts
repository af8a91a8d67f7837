"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, isApiClientError } from "../api";
import { queryKeys } from "../query-keys";
import { conversationPath } from "./paths";
import {
  addPart,
  addPending,
  pendingPart,
  removePending,
  updatePending,
  type PartPages,
} from "./thread-cache";
import type { Actor, Part, QuickReplyButton } from "./types";
import { postMultipart } from "./upload";

export interface SendReplyInput {
  /** Carried with the send: the operator may open another conversation before the answer comes. */
  conversationId: string;
  type: "reply_admin" | "note";
  body: string;
  actions?: QuickReplyButton[];
  file?: File;
  /** Given again when retrying a failed send, so the part keeps its place. */
  randomId: number;
}

/**
 * Sends a reply or a note. The part shows at once (pending, keyed by `random_id`) and is replaced by the server's
 * part when the answer or the socket echo arrives, whichever is first; a failure keeps it, marked, for a retry.
 * Every cache update goes to the thread named in the send's own input, never to the one open at the time:
 * React Query hands a running mutation the options of the latest render.
 */
export function useSendReply(me: Actor) {
  const queryClient = useQueryClient();
  const patch = (conversationId: string, fn: (d: PartPages) => PartPages) =>
    queryClient.setQueryData<PartPages>(queryKeys.inbox.parts(conversationId), (old) =>
      old ? fn(old) : old,
    );
  return useMutation({
    mutationFn: async (input: SendReplyInput): Promise<Part> => {
      const url = `${conversationPath(input.conversationId)}/reply`;
      const fields: Record<string, string> = { type: input.type, random_id: String(input.randomId) };
      if (input.body) fields.body = input.body;
      if (input.actions?.length) fields.actions = JSON.stringify(input.actions);
      if (!input.file) return api.post<Part>(url, fields);
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set("attachment", input.file, input.file.name);
      return postMultipart<Part>(url, form, (progress) =>
        patch(input.conversationId, (d) => updatePending(d, input.randomId, { progress })),
      );
    },
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.inbox.parts(input.conversationId) });
      patch(input.conversationId, (d) =>
        addPending(
          removePending(d, input.randomId),
          pendingPart({
            conversation: input.conversationId,
            randomId: input.randomId,
            body: input.body,
            type: input.type,
            from: me,
            actions: input.actions,
            attachmentName: input.file?.name,
          }),
        ),
      );
    },
    onError: (err, input) => {
      const error = isApiClientError(err) ? err.message : "Could not send. Try again.";
      patch(input.conversationId, (d) => updatePending(d, input.randomId, { error, progress: undefined }));
    },
    onSuccess: (part, input) => patch(input.conversationId, (d) => addPart(d, part)),
  });
}
