import type { AdminMember } from "@/lib/client/settings-types";
import type { PreviewDraw } from "@/messenger/preview-protocol";
import type { MessageForm } from "./message-form-state";

/**
 * The editor's unsaved form as the messenger's frame draws it in preview mode (messenger/frame/preview-mode.ts):
 * what the visitor API would send for it. Null for the kinds the messenger shows no card for (an email, a bot's
 * conversation).
 */
export function previewDraw(
  form: MessageForm,
  operators: AdminMember[] | undefined,
  accent: string | undefined,
): PreviewDraw | null {
  const kind = form.kind;
  if (kind !== "chat" && kind !== "popup") return null;
  const popup = kind === "popup";
  const admin = operators?.find((a) => String(a.id) === form.sender);
  // The messenger leaves out a link button whose URL is not http(s); while its URL is being typed the preview
  // shows the button as it will be (nothing in the preview is followed).
  const url = /^https?:\/\//i.test(form.buttonUrl.trim()) ? form.buttonUrl.trim() : "https://";
  return {
    message: {
      kind,
      sender: admin ? { id: admin.id, name: admin.name, avatar: admin.avatar } : null,
      title: popup ? form.title : null,
      body: form.body,
      button:
        popup && form.button && form.buttonLabel
          ? {
              label: form.buttonLabel,
              action: form.buttonAction,
              url: form.buttonAction === "link" ? url : null,
            }
          : null,
      email_field: popup && form.emailField,
    },
    accent: accent && /^#[0-9a-f]{6}$/i.test(accent) ? accent : null,
  };
}
