import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { MalformedEmail, parseInbound } from "./parse";
import { attachmentSummary, eml, fixture } from "./testing";

describe("replies from mail clients", () => {
  it("Gmail: the new lines only, ids, sender and recipients", async () => {
    const mail = await parseInbound(fixture("gmail-reply.eml"));
    expect(mail).toEqual({
      messageId: "<CAJx9Q2b7Vn8k3Yx5wTg1pLr0EzUq4mN6sXc2oHd@mail.example.com>",
      inReplyTo: ["<relay.1.abc@mail.test>"],
      references: ["<relay.1.abc@mail.test>"],
      from: { address: "anna@example.com", name: "Anna Berg" },
      recipients: ["reply+tok123@mail.test"],
      subject: "Re: Your invoice for November",
      text:
        "Hi,\n\nThanks, the invoice looks right now. Could you also send me the receipt for October? " +
        "I need it for our accounting.\n\nAnna",
      attachments: [],
      automatic: null,
      bounce: null,
    });
  });

  it("Outlook: the From/Sent/To/Subject block and the unquoted history below it are cut, Cc is a recipient", async () => {
    const mail = await parseInbound(fixture("outlook-reply.eml"));
    expect(mail.text).toBe(
      "Hello,\n\nYes, please cancel the second seat from January. We only need one now.\n\nThanks,\nAnna Berg",
    );
    expect(mail.recipients).toEqual(["reply+tok123@mail.test", "jonas@example.com"]);
    expect(mail.messageId).toBe(
      "<AM9PR01MB7240A1B2C3D4E5F6A7B8C9D0E1F2A3B4@AM9PR01MB7240.eurprd01.prod.example.com>",
    );
    expect(mail.inReplyTo).toEqual(["<relay.3.def@mail.test>"]);
    expect(mail.references).toEqual(["<relay.3.def@mail.test>"]);
    expect(mail.automatic).toBeNull();
  });

  it("Apple Mail: the attribution, the quote and 'Sent from my iPhone' are removed", async () => {
    const mail = await parseInbound(fixture("apple-mail-reply.eml"));
    expect(mail.text).toBe("Perfect, see you on Thursday then. I will bring the contract.");
    expect(mail.from).toEqual({ address: "anna@example.com", name: "Anna Berg" });
    expect(mail.messageId).toBe("<8C2A1F3E-6B4D-4F1A-9E2C-7D5B3A1C0E9F@example.com>");
    expect(mail.inReplyTo).toEqual(["<relay.4.ghi@mail.test>"]);
    expect(mail.automatic).toBeNull();
  });

  it("HTML only: the text comes from the HTML, the blockquoted history is dropped", async () => {
    const mail = await parseInbound(fixture("html-only.eml"));
    expect(mail.text).toBe(
      "Hello again,\n\nthe export still fails after the update. I tried:\n * Chrome on Windows\n * Safari on my Mac" +
        "\n\nBoth show the same error.\u00a0What else can I try?\n\nAnna",
    );
    expect(mail.inReplyTo).toEqual(["<relay.5.jkl@mail.test>"]);
    expect(mail.references).toEqual(["<relay.2.aaa@mail.test>", "<relay.5.jkl@mail.test>"]);
    expect(mail.recipients).toEqual(["reply+tok123@mail.test"]);
  });

  it("the HTML alternative alone gives the same words as the text part", async () => {
    for (const name of ["gmail-reply.eml", "outlook-reply.eml", "apple-mail-reply.eml", "forwarded.eml"]) {
      const original = await simpleParser(fixture(name), { keepCidLinks: true });
      expect(typeof original.html).toBe("string");
      const htmlOnly = eml(
        [`Subject: ${original.subject}`],
        String(original.html),
        "text/html; charset=utf-8",
      );
      const [fromText, fromHtml] = [await parseInbound(fixture(name)), await parseInbound(htmlOnly)];
      // mailparser's HTML conversion wraps lines at 80 columns, so only the words are compared.
      expect(fromHtml.text.replace(/\s+/g, " "), name).toBe(fromText.text.replace(/\s+/g, " "));
    }
  });

  it("a forward keeps the forwarded message, headers and its quote included", async () => {
    const mail = await parseInbound(fixture("forwarded.eml"));
    expect(mail.text).toBe(
      [
        "Hi, please see below, this came from our warehouse. Can you check the address on order 1042?",
        "",
        "---------- Forwarded message ---------",
        "From: Warehouse Team <warehouse@example.com>",
        "Date: Mon, Nov 30, 2026 at 4:12\u202fPM",
        "Subject: Delivery problem with order 1042",
        "To: Anna Berg <anna@example.com>",
        "",
        "Hello Anna,",
        "",
        "the parcel for order 1042 was returned to us. Can you confirm the address?",
        "",
        "> Shipping address: Hauptstr. 1, Berlin",
        "",
        "Warehouse Team",
      ].join("\n"),
    );
    expect(mail.subject).toBe("Fwd: Delivery problem with order 1042");
    expect(mail.inReplyTo).toEqual([]);
    expect(mail.automatic).toBeNull();
  });
});

describe("attachments", () => {
  it("lists the PDF and the PNG, not the inline image the HTML shows by cid", async () => {
    const mail = await parseInbound(fixture("attachments.eml"));
    expect(mail.text).toBe("Hi,\n\nhere are the invoice and a screenshot of the error message.\n\nAnna");
    expect(mail.attachments.map(attachmentSummary)).toEqual([
      { filename: "Rechnung Müller 1042.pdf", contentType: "application/pdf", size: 435 },
      { filename: "screenshot.png", contentType: "image/png", size: 73 },
    ]);
    expect(mail.attachments[0]?.content.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
    expect(mail.attachments[1]?.content.subarray(0, 8)).toEqual(Buffer.from("\x89PNG\r\n\x1a\n", "latin1"));
  });

  it("an S/MIME signature is not an attachment; a file without a name gets one", async () => {
    const raw = eml(
      [],
      [
        "--s1",
        "Content-Type: multipart/mixed; boundary=m1",
        "",
        "--m1",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Signed and attached.",
        "--m1",
        "Content-Type: application/pdf",
        "Content-Transfer-Encoding: base64",
        "",
        Buffer.from("%PDF-1.4 tiny").toString("base64"),
        "--m1--",
        "",
        "--s1",
        'Content-Type: application/pkcs7-signature; name="smime.p7s"',
        "Content-Transfer-Encoding: base64",
        'Content-Disposition: attachment; filename="smime.p7s"',
        "",
        Buffer.from("0\x82signature").toString("base64"),
        "--s1--",
        "",
      ].join("\r\n"),
      'multipart/signed; protocol="application/pkcs7-signature"; micalg=sha-256; boundary="s1"',
    );
    const mail = await parseInbound(raw);
    expect(mail.text).toBe("Signed and attached.");
    expect(mail.attachments.map(attachmentSummary)).toEqual([
      { filename: "attachment-1.pdf", contentType: "application/pdf", size: 13 },
    ]);
  });
});

describe("charsets", () => {
  it("ISO-8859-1 quoted-printable, format=flowed, encoded-word subject and name", async () => {
    const mail = await parseInbound(fixture("latin1.eml"));
    expect(mail.text).toBe(
      "Hallo,\n\nja, ça marche. Die Rechnung ist angekommen, vielen Dank für die schnelle Hilfe.\n\nGrüße, Müller",
    );
    expect(mail.subject).toBe("Re: Rückfrage zur Rechnung");
    expect(mail.from).toEqual({ address: "juergen@example.com", name: "Jürgen Müller" });
  });

  it("windows-1252: curly quotes, dashes and the euro sign; an Outlook block without a rule is cut", async () => {
    const mail = await parseInbound(fixture("windows-1252.eml"));
    expect(mail.text).toBe(
      "Hi,\n\nthe new plan costs 49\u00a0€ per month – that’s “fine” for us. Please switch us over.\n\nThanks,\nAnna",
    );
    expect(mail.subject).toBe("RE: New plan – € pricing");
  });

  it("ISO-2022-JP (7bit): body, subject and name; the Japanese Gmail attribution is cut", async () => {
    const mail = await parseInbound(fixture("iso-2022-jp.eml"));
    expect(mail.text).toBe(
      "お世話になっております。\n請求書を受け取りました。\nありがとうございます。\n\n山田",
    );
    expect(mail.subject).toBe("Re: 請求書について");
    expect(mail.from).toEqual({ address: "yamada@example.com", name: "山田 太郎" });
  });

  it("KOI8-R 8bit: body, subject and name", async () => {
    const mail = await parseInbound(fixture("koi8-r.eml"));
    expect(mail.text).toBe("Здравствуйте!\n\nСпасибо, всё работает.\n\nИван");
    expect(mail.subject).toBe("Re: Вопрос");
    expect(mail.from).toEqual({ address: "ivan@example.com", name: "Иван Петров" });
    expect(mail.references).toEqual([]);
  });
});

describe("headers", () => {
  it("envelope recipients come first and are merged with To, Cc, Delivered-To and X-Original-To", async () => {
    const raw = eml(
      [
        "Delivered-To: reply+tok123@mail.test",
        "X-Original-To: Support@Mail.test",
        "Cc: Jonas <jonas@example.com>, Team: Kim <kim@example.com>;",
      ],
      "Hello",
    );
    const mail = await parseInbound(raw, { to: ["<Archive@mail.test>", "reply+tok123@mail.test"] });
    expect(mail.recipients).toEqual([
      "archive@mail.test",
      "reply+tok123@mail.test",
      "jonas@example.com",
      "kim@example.com",
      "support@mail.test",
    ]);
  });

  it("a message without Message-ID gives null; ids are normalized and deduplicated", async () => {
    const raw = Buffer.from(
      [
        "From: anna@example.com",
        "In-Reply-To: <relay.2.b@mail.test> (Relay's message of Tue, 1 Dec 2026)",
        "References: <relay.1.a@mail.test>, <relay.2.b@mail.test>",
        "  <relay.1.a@mail.test>",
        "",
        "Hello",
      ].join("\r\n"),
    );
    const mail = await parseInbound(raw);
    expect(mail.messageId).toBeNull();
    expect(mail.inReplyTo).toEqual(["<relay.2.b@mail.test>"]);
    expect(mail.references).toEqual(["<relay.1.a@mail.test>", "<relay.2.b@mail.test>"]);
    expect(mail.subject).toBe("");
    expect(mail.from).toEqual({ address: "anna@example.com", name: "" });
    expect(mail.recipients).toEqual([]);
  });

  it("a Message-ID without angle brackets gets them", async () => {
    expect((await parseInbound(eml(["Message-ID:  abc.123@example.com "], "Hi"))).messageId).toBe(
      "<abc.123@example.com>",
    );
  });

  it("an mbox 'From ' envelope line before the headers is skipped", async () => {
    const raw = Buffer.concat([
      Buffer.from("From anna@example.com Tue Dec  1 10:12:31 2026\n"),
      fixture("gmail-reply.eml"),
    ]);
    expect((await parseInbound(raw)).messageId).toBe(
      "<CAJx9Q2b7Vn8k3Yx5wTg1pLr0EzUq4mN6sXc2oHd@mail.example.com>",
    );
  });
});

describe("not an email", () => {
  it.each([
    ["binary garbage (malformed.eml)", fixture("malformed.eml"), /binary data/],
    ["an empty buffer", Buffer.alloc(0), /empty/],
    ["prose without headers", Buffer.from("Hello,\nthis is just some pasted text.\n"), /no header block/],
    ["headers without From", Buffer.from("To: reply+tok123@mail.test\r\nSubject: hi\r\n\r\nbody"), /no From/],
    ["a From without an address", Buffer.from("From: Anna Berg <>\r\nSubject: hi\r\n\r\nbody"), /no From/],
    ["a NUL in the headers", Buffer.from("From: a@example.com\r\nSubject: a\0b\r\n\r\nbody"), /binary data/],
  ])("%s is rejected with MalformedEmail", async (_, raw, message) => {
    const error: unknown = await parseInbound(raw).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEmail);
    expect((error as MalformedEmail).message).toMatch(message);
  });
});
