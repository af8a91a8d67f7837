import { describe, expect, it } from "vitest";
import { parseInbound } from "./parse";
import { eml, fixture } from "./testing";

describe("automatic messages", () => {
  it("an out-of-office reply (Auto-Submitted: auto-replied)", async () => {
    const mail = await parseInbound(fixture("auto-reply.eml"));
    expect(mail.automatic).toBe("Auto-Submitted: auto-replied");
    expect(mail.bounce).toBeNull();
    expect(mail.inReplyTo).toEqual(["<relay.1.abc@mail.test>"]);
    expect(mail.text).toBe(
      "Hi,\n\nI am out of the office until December 7 with limited access to email. " +
        "For urgent matters please write to office@example.com.\n\nAnna",
    );
  });

  it("a newsletter (Precedence: bulk, List-Unsubscribe)", async () => {
    const mail = await parseInbound(fixture("bulk.eml"));
    expect(mail.automatic).toBe("Precedence: bulk");
    expect(mail.from).toEqual({ address: "news@example.com", name: "Example Weekly" });
    expect(mail.recipients).toEqual(["support@mail.test"]);
    expect(mail.bounce).toBeNull();
  });

  it.each([
    [["X-Autoreply: yes"], "X-Autoreply: yes"],
    [["X-Autorespond: Vacation"], "X-Autorespond: Vacation"],
    [["Precedence: junk"], "Precedence: junk"],
    [["List-Id: Customers <customers.example.com>"], "mailing list (List-Id)"],
    [["List-Unsubscribe: <https://example.com/u/1>"], "mailing list (List-Unsubscribe)"],
    [
      ["X-Auto-Response-Suppress: All", "Subject: Automatic reply: Your invoice"],
      "X-Auto-Response-Suppress: All with an out-of-office subject",
    ],
    [["Return-Path: <>"], "empty return path (MAILER-DAEMON)"],
    [["From: MAILER-DAEMON@mx.example.com"], "From: MAILER-DAEMON"],
  ])("%j is automatic", async (headers, reason) => {
    expect((await parseInbound(eml(headers, "Hello"))).automatic).toBe(reason);
  });

  it.each([
    [["Auto-Submitted: no"]],
    [["X-Auto-Response-Suppress: All", "Subject: Re: Your invoice"]],
    [["Return-Path: <anna@example.com>"]],
    [["Precedence: normal"]],
  ])("%j is a person's message", async (headers) => {
    expect((await parseInbound(eml(headers, "Hello"))).automatic).toBeNull();
  });

  it("an empty envelope sender is automatic", async () => {
    const mail = await parseInbound(fixture("gmail-reply.eml"), { from: "" });
    expect(mail.automatic).toBe("empty return path (MAILER-DAEMON)");
  });

  it("a read receipt (multipart/report disposition-notification) is automatic, its report part no attachment", async () => {
    const raw = eml(
      ["Subject: Read: Your invoice"],
      [
        "--b1",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Your message was read on Tuesday.",
        "--b1",
        "Content-Type: message/disposition-notification",
        "",
        "Final-Recipient: rfc822; anna@example.com",
        "Original-Message-ID: <relay.1.abc@mail.test>",
        "Disposition: manual-action/MDN-sent-manually; displayed",
        "--b1--",
        "",
      ].join("\r\n"),
      'multipart/report; report-type=disposition-notification; boundary="b1"',
    );
    const mail = await parseInbound(raw);
    expect(mail.automatic).toBe("multipart/report (disposition-notification)");
    expect(mail.bounce).toBeNull();
    expect(mail.attachments).toEqual([]);
    expect(mail.text).toBe("Your message was read on Tuesday.");
  });
});

describe("bounces", () => {
  it("a Postfix DSN: failed 5.1.1 is a hard bounce of our message", async () => {
    const mail = await parseInbound(fixture("bounce.eml"));
    expect(mail.bounce).toEqual({
      recipients: ["gone@example.com"],
      status: "5.1.1",
      permanent: true,
      originalMessageId: "<relay.7.xyz@mail.test>",
    });
    expect(mail.automatic).toBe("multipart/report (delivery-status)");
    expect(mail.attachments).toEqual([]);
    expect(mail.from).toEqual({ address: "mailer-daemon@mail.test", name: "Mail Delivery System" });
    expect(mail.recipients).toEqual(["bounces@mail.test"]);
    expect(mail.text).toMatch(/^This is the mail system at host mx\.mail\.test\.\n\nI'm sorry/);
    expect(mail.text).toContain("Recipient address rejected: User unknown in virtual");
    expect(mail.text).not.toContain("Reporting-MTA");
  });

  it("a delay warning: delayed 4.4.1 is not permanent; the original comes from a message/rfc822 part", async () => {
    const mail = await parseInbound(fixture("deferred-dsn.eml"));
    expect(mail.bounce).toEqual({
      recipients: ["slow@example.com"],
      status: "4.4.1",
      permanent: false,
      originalMessageId: "<relay.12.bcd@mail.test>",
    });
    expect(mail.automatic).toBe("multipart/report (delivery-status)");
    expect(mail.attachments).toEqual([]);
    expect(mail.text).not.toContain("welcome aboard");
  });

  it("several recipients: delivered ones are left out, one failed 5.x.x makes it permanent", async () => {
    const raw = eml(
      ["From: Mail Delivery System <MAILER-DAEMON@mail.test>", "Subject: Delivery Status Notification"],
      [
        "--b2",
        "Content-Type: text/plain",
        "",
        "Delivery to some recipients failed.",
        "--b2",
        "Content-Type: message/delivery-status",
        "",
        "Reporting-MTA: dns; mx.mail.test",
        "",
        "Final-Recipient: rfc822; ok@example.com",
        "Action: delivered",
        "Status: 2.0.0",
        "",
        "Final-Recipient: rfc822; <Full@Example.com>",
        "Action: failed (mailbox full)",
        "Status: 5.2.2 (mailbox full)",
        "",
        "Final-Recipient: rfc822; later@example.com",
        "Action: delayed",
        "Status: 4.2.0",
        "--b2--",
        "",
      ].join("\r\n"),
      "multipart/report; report-type=delivery-status; boundary=b2",
    );
    expect((await parseInbound(raw)).bounce).toEqual({
      recipients: ["full@example.com", "later@example.com"],
      status: "5.2.2",
      permanent: true,
      originalMessageId: null,
    });
  });
});
