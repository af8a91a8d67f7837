"use client";

import { useMemo } from "react";
import { PreviewFrame } from "@/components/preview/preview-frame";
import { UserText } from "@/components/ui/user-text";
import type { AdminMember } from "@/lib/client/settings-types";
import { TAG } from "@/messenger/protocol";
import { PREVIEW_QUERY, type PreviewDraw, type ToPreview } from "@/messenger/preview-protocol";
import type { MessageForm } from "./message-form-state";
import { previewDraw } from "./preview-draw";

// Served by the server in front of Next (lib/messenger/assets.ts), on the panel's origin.
const FRAME_SRC = `/messenger/frame.html?${PREVIEW_QUERY}`;

/**
 * The message as the visitor will see it, with the form's unsaved values: a chat message or a pop-up in the
 * messenger's real frame (its preview mode, messenger/frame/preview-mode.ts), an email as a sketch of its subject
 * and text; a bot's message has nothing of its own to show. Nothing in it is clickable, and Tab goes past it.
 */
export function MessagePreview({
  form,
  operators,
  accent,
}: {
  form: MessageForm;
  operators: AdminMember[] | undefined;
  accent: string | undefined;
}) {
  const draw = useMemo(() => previewDraw(form, operators, accent), [form, operators, accent]);
  return (
    <figure className="rounded-lg bg-slate-100 p-3" data-testid="message-preview">
      <figcaption className="mb-2 text-xs font-medium text-slate-600">
        Preview{form.kind === "email" ? " (email)" : " (messenger)"}
      </figcaption>
      {draw ? (
        <MessengerFrame draw={draw} />
      ) : form.kind === "email" ? (
        <EmailSketch form={form} operators={operators} />
      ) : (
        <p className="text-sm text-slate-700">The bot&apos;s own first steps open the conversation.</p>
      )}
    </figure>
  );
}

/** The frame, sent the message on every change once it says it is ready. */
function MessengerFrame({ draw }: { draw: PreviewDraw }) {
  const message = useMemo<ToPreview>(() => ({ tag: TAG, type: "preview", ...draw }), [draw]);
  return (
    <PreviewFrame
      src={FRAME_SRC}
      message={message}
      title="Preview in the messenger"
      tabIndex={-1}
      className="mx-auto block h-[460px] w-full max-w-[360px] rounded-xl border border-slate-200 bg-[#f6f7f9] shadow-md"
    />
  );
}

function EmailSketch({ form, operators }: { form: MessageForm; operators: AdminMember[] | undefined }) {
  const sender = operators?.find((a) => String(a.id) === form.sender);
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-xs text-slate-500">
        From: <UserText>{sender ? sender.name : "the app's email name"}</UserText>
      </p>
      <p className="mt-1 font-semibold break-words text-slate-900">{form.subject || " "}</p>
      <hr className="my-3 border-slate-200" />
      <p className="text-sm break-words whitespace-pre-wrap text-slate-900">{form.body || " "}</p>
    </div>
  );
}
