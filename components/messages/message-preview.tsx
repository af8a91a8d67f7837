import { Avatar } from "@/components/panel/avatar";
import { UserText } from "@/components/ui/user-text";
import type { AdminMember } from "@/lib/client/settings-types";
import type { MessageForm } from "./message-form-state";

/**
 * A sketch of the message as the visitor will see it, with the form's unsaved values: the messenger's card for a
 * chat message or a pop-up (messenger/frame/auto-message-view.ts), or the email's subject and text. Static: not the
 * messenger's frame, and nothing in it is clickable.
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
  const color = accent && /^#[0-9a-f]{6}$/i.test(accent) ? accent : "#2563eb";
  const sender = operators?.find((a) => String(a.id) === form.sender);
  const body = <p className="text-sm break-words whitespace-pre-wrap text-slate-900">{form.body || " "}</p>;
  const primary = (label: string) => (
    <span
      className="inline-block rounded-[10px] px-4 py-2 text-sm font-semibold text-white"
      style={{ backgroundColor: color }}
    >
      {label}
    </span>
  );
  return (
    <figure className="rounded-lg bg-slate-100 p-3" data-testid="message-preview">
      <figcaption className="mb-2 text-xs font-medium text-slate-600">
        Preview{form.kind === "email" ? " (email)" : " (messenger)"}
      </figcaption>
      {form.kind === "email" ? (
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <p className="text-xs text-slate-500">
            From: <UserText>{sender ? sender.name : "the app's email name"}</UserText>
          </p>
          <p className="mt-1 font-semibold break-words text-slate-900">{form.subject || " "}</p>
          <hr className="my-3 border-slate-200" />
          {body}
        </div>
      ) : (
        <div className="mx-auto w-full max-w-[360px] rounded-xl border border-slate-200 bg-[#f6f7f9] p-3 shadow-md">
          <div className="space-y-2 rounded-xl border border-[#e5e7eb] bg-white px-4 py-3.5">
            <div className="flex items-start justify-between gap-2">
              {form.kind === "chat" ? (
                <span className="flex min-w-0 items-center gap-1.5 text-sm font-medium text-slate-900">
                  <Avatar name={sender?.name ?? "?"} src={sender?.avatar || undefined} className="size-6" />
                  <UserText>{sender?.name ?? "Operator"}</UserText>
                </span>
              ) : (
                <p className="min-w-0 text-[15px] font-semibold break-words text-slate-900">
                  {form.title || " "}
                </p>
              )}
              <span aria-hidden="true" className="text-xl leading-none text-slate-500">
                ×
              </span>
            </div>
            {body}
            {form.kind === "popup" && form.emailField && (
              <div className="space-y-1">
                <p className="text-sm text-slate-700">Your email</p>
                <div className="flex gap-2">
                  <span className="h-9 flex-1 rounded-md border border-slate-300 bg-white px-2 text-sm leading-9 text-slate-400">
                    you@example.com
                  </span>
                  {primary("Send")}
                </div>
              </div>
            )}
            {form.kind === "chat" && primary("Reply")}
            {form.kind === "popup" && form.button && form.buttonLabel && primary(form.buttonLabel)}
          </div>
        </div>
      )}
    </figure>
  );
}
