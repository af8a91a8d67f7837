import type { Attachment, HeaderLines, HeaderValue, StructuredHeader } from "mailparser";
import { fieldBlocks, headerValues, messageIds } from "./headers";

export interface Bounce {
  /** Final-Recipient / Original-Recipient addresses, lowercased, without "rfc822;" */
  recipients: string[];
  /** the DSN Status code, e.g. "5.1.1" ("" if none) */
  status: string;
  /** true for a hard bounce: Action failed with a 5.x.x status */
  permanent: boolean;
  /** Message-ID of the message that bounced, from the DSN's included original headers (text/rfc822-headers or message/rfc822 part), with angle brackets, or null */
  originalMessageId: string | null;
}

const STATUS_PARTS = new Set(["message/delivery-status", "message/global-delivery-status"]);
const ORIGINAL_PARTS = new Set([
  "text/rfc822-headers",
  "message/global-headers",
  "message/rfc822",
  "message/global",
]);
/** Machine-readable parts of a multipart/report: the report itself and the returned message, not attachments. */
export const REPORT_PARTS = new Set([
  ...STATUS_PARTS,
  ...ORIGINAL_PARTS,
  "message/disposition-notification",
  "message/global-disposition-notification",
  "message/feedback-report",
]);

function isStructured(value: HeaderValue | undefined): value is StructuredHeader {
  return typeof value === "object" && !Array.isArray(value) && !(value instanceof Date) && "params" in value;
}

/** The report-type of a multipart/report message ("" when it names none), or null for any other message. */
export function reportType(contentType: HeaderValue | undefined): string | null {
  if (!isStructured(contentType) || contentType.value.toLowerCase() !== "multipart/report") return null;
  return (contentType.params["report-type"] ?? "").toLowerCase();
}

const address = (field: string | undefined) =>
  (field ?? "")
    .replace(/^[^;@]*;/, "")
    .trim()
    .replace(/^<(.*)>$/, "$1")
    .trim()
    .toLowerCase();
const statusCode = (field: string | undefined) => /\b[245]\.\d{1,3}\.\d{1,3}\b/.exec(field ?? "")?.[0] ?? "";
const action = (block: Map<string, string>) =>
  (block.get("action") ?? "").toLowerCase().split(/[\s(]/)[0] ?? "";

/** Reads an RFC 3464 delivery report from the parts mailparser left as attachments. */
export function deliveryReport(attachments: Attachment[]): Bounce {
  const status = attachments.find((a) => STATUS_PARTS.has(a.contentType));
  const perRecipient = fieldBlocks(status?.content.toString("utf8") ?? "").filter(
    (b) => b.has("final-recipient") || b.has("original-recipient") || b.has("action"),
  );
  // A report can list delivered or relayed recipients next to failed ones: those did not bounce.
  const failing = perRecipient.filter((b) => ["failed", "delayed"].includes(action(b)));
  const chosen = failing.length > 0 ? failing : perRecipient;
  const recipients = [
    ...new Set(chosen.flatMap((b) => [b.get("final-recipient"), b.get("original-recipient")].map(address))),
  ].filter(Boolean);
  const primary = chosen.find((b) => action(b) === "failed") ?? chosen[0];
  const original = attachments.find((a) => ORIGINAL_PARTS.has(a.contentType));
  const originalHeaders = fieldBlocks(original?.content.toString("utf8") ?? "")[0];
  return {
    recipients,
    status: statusCode(primary?.get("status")),
    permanent: chosen.some((b) => action(b) === "failed" && statusCode(b.get("status")).startsWith("5.")),
    originalMessageId: messageIds([originalHeaders?.get("message-id") ?? ""])[0] ?? null,
  };
}

const OUT_OF_OFFICE_SUBJECT =
  /^\s*(automatic reply|auto[- ]?reply|out of (the )?office|abwesenheitsnotiz|automatische antwort|r[ée]ponse automatique|respuesta autom[áa]tica|risposta automatica|automatisch antwoord)\b/i;
/** Headers that vacation responders and ticket systems set on what they send by themselves. */
const AUTOREPLY_HEADERS = [
  "x-autoreply",
  "x-autorespond",
  "x-autoresponder",
  "x-autoreply-from",
  "x-mail-autoreply",
];

export interface AutomaticInput {
  lines: HeaderLines;
  subject: string;
  report: string | null;
  fromAddress: string;
  envelopeFrom: string | undefined;
}

/** Why the message was sent by a machine rather than typed by a person, or null. */
export function automaticReason({
  lines,
  subject,
  report,
  fromAddress,
  envelopeFrom,
}: AutomaticInput): string | null {
  const first = (key: string) => headerValues(lines, key)[0];
  const name = (key: string) => lines.find((l) => l.key === key)?.line.split(":")[0] ?? key;

  if (report !== null) return `multipart/report (${report || "no report-type"})`;
  const autoSubmitted = first("auto-submitted");
  if (autoSubmitted !== undefined && !/^no\b/i.test(autoSubmitted)) return `Auto-Submitted: ${autoSubmitted}`;
  for (const key of AUTOREPLY_HEADERS) {
    const value = first(key);
    if (value !== undefined && !/^(no|false|0)$/i.test(value)) return `${name(key)}: ${value}`.trim();
  }
  const precedence = first("precedence");
  if (precedence && /^(bulk|junk|list|auto[_-]?reply)$/i.test(precedence)) return `Precedence: ${precedence}`;
  // Outlook sets this header on much of what it sends; only with an out-of-office subject is it an OOF reply.
  const suppress = first("x-auto-response-suppress");
  if (suppress && /\b(all|oof)\b/i.test(suppress) && OUT_OF_OFFICE_SUBJECT.test(subject)) {
    return `X-Auto-Response-Suppress: ${suppress} with an out-of-office subject`;
  }
  for (const key of ["list-id", "list-unsubscribe"]) {
    if (first(key) !== undefined) return `mailing list (${name(key)})`;
  }
  const returnPaths = [
    ...headerValues(lines, "return-path"),
    ...(envelopeFrom === undefined ? [] : [envelopeFrom]),
  ];
  if (returnPaths.some((p) => p.replace(/[<>\s]/g, "") === "")) {
    return "empty return path (MAILER-DAEMON)";
  }
  if (/^mailer-daemon(@|$)/i.test(fromAddress)) return "From: MAILER-DAEMON";
  return null;
}
