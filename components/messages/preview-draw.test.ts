import { describe, expect, test } from "vitest";
import type { AdminMember } from "@/lib/client/settings-types";
import { parsePreview } from "@/messenger/preview-protocol";
import { TAG } from "@/messenger/protocol";
import { newForm, type MessageForm } from "./message-form-state";
import { previewDraw } from "./preview-draw";

const olivia: AdminMember = {
  id: 9,
  type: "admin",
  name: "Olivia",
  email: "olivia@example.test",
  avatar: "https://example.test/o.png",
  role: "operator",
  created: 1,
};

const form = (patch: Partial<MessageForm>): MessageForm => ({ ...newForm("9"), ...patch });

describe("previewDraw", () => {
  test("a chat message: its sender and text, the accent", () => {
    expect(previewDraw(form({ body: "Hi!" }), [olivia], "#ff0000")).toEqual({
      message: {
        kind: "chat",
        sender: { id: 9, name: "Olivia", avatar: "https://example.test/o.png" },
        title: null,
        body: "Hi!",
        button: null,
        email_field: false,
      },
      accent: "#ff0000",
    });
  });

  test("a pop-up: title, email field, a link button shown while its URL is incomplete", () => {
    const popup = form({
      kind: "popup",
      title: "A gift",
      body: "Ten percent",
      emailField: true,
      button: true,
    });
    expect(previewDraw({ ...popup, buttonLabel: "Get it", buttonUrl: "exa" }, [], undefined)).toMatchObject({
      message: {
        kind: "popup",
        title: "A gift",
        email_field: true,
        button: { label: "Get it", action: "link", url: "https://" },
      },
      accent: null,
    });
    const reply = previewDraw({ ...popup, buttonLabel: "Yes", buttonAction: "reply" }, [], "red");
    expect(reply?.message.button).toEqual({ label: "Yes", action: "reply", url: null });
    expect(reply?.accent).toBeNull();
    // No label yet: no button, as the messenger would show none.
    expect(previewDraw(popup, [], undefined)?.message.button).toBeNull();
  });

  test("an email and a bot's message have no messenger card", () => {
    expect(previewDraw(form({ kind: "email" }), [olivia], undefined)).toBeNull();
    expect(previewDraw(form({ kind: "bot" }), [olivia], undefined)).toBeNull();
  });

  test("what the panel posts is what the frame reads", () => {
    const draw = previewDraw(
      form({ kind: "popup", title: "T", button: true, buttonLabel: "Go" }),
      [olivia],
      "#123abc",
    );
    expect(parsePreview(JSON.parse(JSON.stringify({ tag: TAG, type: "preview", ...draw })))).toEqual(draw);
  });
});
