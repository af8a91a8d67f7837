import { parseAddressHeader, simpleParser, type Attachment, type ParsedMail } from "mailparser";
import { automaticReason, deliveryReport, REPORT_PARTS, reportType, type Bounce } from "./auto";
import { headerValues, messageIds } from "./headers";
import { newText } from "./strip";

export type { Bounce };

export interface InboundAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ParsedEmail {
  /** "<id@host>" form (angle brackets kept, whitespace trimmed), or null when absent */
  messageId: string | null;
  /** In-Reply-To and References ids, each "<...>", in header order, deduplicated */
  inReplyTo: string[];
  references: string[];
  /** address lowercased; never null in practice: a message without a From address is a MalformedEmail */
  from: { address: string; name: string } | null;
  /** every recipient address, lowercased and deduplicated: envelope recipients given, To, Cc, Delivered-To, X-Original-To */
  recipients: string[];
  subject: string;
  /**
   * only what the sender wrote in this message: quoted history ("On … wrote:", ">" lines, Outlook "From:/Sent:"
   * blocks and "-----Original Message-----", Apple Mail blockquotes) and signatures ("-- ", "Sent from my iPhone")
   * removed; taken from the HTML (converted to plain text) when there is no text/plain part; trimmed; a forwarded
   * message's content is kept (a forward is new information)
   */
  text: string;
  /** real attachments (not inline images referenced by cid from the HTML body, not the DSN parts of a bounce) */
  attachments: InboundAttachment[];
  /**
   * why this message is automatic and must not become a conversation (e.g. "Auto-Submitted: auto-replied",
   * "Precedence: bulk", "mailing list (List-Id)", "empty return path (MAILER-DAEMON)", "multipart/report
   * (delivery-status)"), or null for a person's message. A bounce is reported through `bounce`, and also has
   * `automatic` set.
   */
  automatic: string | null;
  bounce: Bounce | null;
}

export class MalformedEmail extends Error {
  override name = "MalformedEmail";
}

const PARSER_OPTIONS = {
  // The DSN and the returned message are read as parts, not appended to the text or parsed as a second mail.
  keepDeliveryStatus: true,
  ignoreEmbedded: true,
  // cid: links stay in the HTML so that inline images can be told from attachments.
  keepCidLinks: true,
  skipImageLinks: true,
  skipTextToHtml: true,
  checksumAlgo: false,
  // Converting bigger HTML to text takes seconds; such a part then gives no text rather than a stalled worker.
  maxHtmlLengthToParse: 2_000_000,
} as const;

const HEADER_FIELD = /^[!-9;-~]+[ \t]*:/;
const CONTROL = /[\x00-\x08\x0e-\x1f\x7f]/;

/** mailparser takes anything, garbage included, as a message with no headers: refuse what is not one up front. */
function checkLooksLikeEmail(raw: Buffer): Buffer {
  if (!Buffer.isBuffer(raw) || raw.length === 0) throw new MalformedEmail("not an email: the input is empty");
  let head = raw.subarray(0, 256 * 1024).toString("latin1");
  let source = raw;
  // An mbox file starts with the envelope line "From sender date", which is no header.
  const mbox = /^From \S+[^\n]*\n/.exec(head);
  if (mbox) {
    head = head.slice(mbox[0].length);
    source = raw.subarray(mbox[0].length);
  }
  const end = /\r?\n\r?\n/.exec(head);
  const headerBlock = end ? head.slice(0, end.index) : head;
  if (CONTROL.test(headerBlock)) throw new MalformedEmail("not an email: binary data in the header block");
  if (!HEADER_FIELD.test(headerBlock)) throw new MalformedEmail("not an email: no header block");
  return source;
}

const lower = (address: string | undefined) => (address ?? "").trim().replace(/^<|>$/g, "").toLowerCase();

function addresses(mail: ParsedMail, key: string): string[] {
  const flattened = parseAddressHeader(headerValues(mail.headerLines, key), { flatten: true });
  return flattened.value.map((a) => lower(a.address));
}

/** The signature of a signed message (S/MIME, OpenPGP) is proof of the sender, not something they attached. */
const SIGNATURES = new Set([
  "application/pkcs7-signature",
  "application/x-pkcs7-signature",
  "application/pgp-signature",
]);

const EXTENSIONS: Record<string, string> = {
  "application/pdf": ".pdf",
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "text/plain": ".txt",
  "text/calendar": ".ics",
  "message/rfc822": ".eml",
};

function realAttachments(mail: ParsedMail, isReport: boolean): InboundAttachment[] {
  const html = typeof mail.html === "string" ? mail.html.toLowerCase() : "";
  const shownInBody = (a: Attachment) => Boolean(a.cid) && html.includes(`cid:${a.cid?.toLowerCase()}`);
  return mail.attachments
    .filter((a) => !(isReport && REPORT_PARTS.has(a.contentType)) && !SIGNATURES.has(a.contentType))
    .filter((a) => !shownInBody(a))
    .map((a, i) => ({
      filename: a.filename ?? `attachment-${i + 1}${EXTENSIONS[a.contentType] ?? ""}`,
      contentType: a.contentType,
      content: a.content,
    }));
}

function toParsedEmail(mail: ParsedMail, envelope: { from?: string; to?: string[] }): ParsedEmail {
  const sender = parseAddressHeader(headerValues(mail.headerLines, "from"), { flatten: true }).value.find(
    (a) => lower(a.address) !== "",
  );
  if (!sender) throw new MalformedEmail("not an email: no From address");
  const from = { address: lower(sender.address), name: sender.name.trim() };
  const subject = mail.subject ?? "";
  const report = reportType(mail.headers.get("content-type"));
  const bounce = report === "delivery-status" ? deliveryReport(mail.attachments) : null;
  const recipients = [
    ...(envelope.to ?? []).map(lower),
    ...["to", "cc", "delivered-to", "x-original-to"].flatMap((key) => addresses(mail, key)),
  ];
  return {
    messageId: messageIds(headerValues(mail.headerLines, "message-id"))[0] ?? null,
    inReplyTo: messageIds(headerValues(mail.headerLines, "in-reply-to")),
    references: messageIds(headerValues(mail.headerLines, "references")),
    from,
    recipients: [...new Set(recipients)].filter(Boolean),
    subject,
    text: newText(mail.text ?? "", subject),
    attachments: realAttachments(mail, report !== null),
    automatic: automaticReason({
      lines: mail.headerLines,
      subject,
      report,
      fromAddress: from.address,
      envelopeFrom: envelope.from,
    }),
    bounce,
  };
}

/**
 * Reads a raw inbound email (RFC 5322 / MIME bytes) into what the inbox needs. Throws MalformedEmail, and
 * nothing else, when the input is not an email.
 */
export async function parseInbound(
  raw: Buffer,
  envelope: { from?: string; to?: string[] } = {},
): Promise<ParsedEmail> {
  const source = checkLooksLikeEmail(raw);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(source, PARSER_OPTIONS);
  } catch (cause) {
    throw new MalformedEmail(`not an email: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
  try {
    return toParsedEmail(mail, envelope);
  } catch (cause) {
    // Whatever odd input slips past mailparser must still reach the caller as the one documented error.
    if (cause instanceof MalformedEmail) throw cause;
    throw new MalformedEmail(`unreadable email: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}
