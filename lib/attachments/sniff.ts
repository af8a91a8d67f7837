/**
 * File types are checked by content, never by the client's Content-Type: the name's extension must be one the spec
 * allows and the bytes must be what that extension claims.
 */
type Kind = "jpeg" | "png" | "gif" | "pdf" | "rar" | "zip" | "docx" | "xlsx" | "ole" | "text" | "pgp" | "der";

interface Allowed {
  mime: string;
  kinds: Kind[];
}

export const ALLOWED: Record<string, Allowed> = {
  jpg: { mime: "image/jpeg", kinds: ["jpeg"] },
  jpeg: { mime: "image/jpeg", kinds: ["jpeg"] },
  png: { mime: "image/png", kinds: ["png"] },
  gif: { mime: "image/gif", kinds: ["gif"] },
  pdf: { mime: "application/pdf", kinds: ["pdf"] },
  rar: { mime: "application/vnd.rar", kinds: ["rar"] },
  // An Office Open XML file is a zip too.
  zip: { mime: "application/zip", kinds: ["zip", "docx", "xlsx"] },
  html: { mime: "text/html", kinds: ["text"] },
  csv: { mime: "text/csv", kinds: ["text"] },
  txt: { mime: "text/plain", kinds: ["text"] },
  docx: { mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", kinds: ["docx"] },
  xlsx: { mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", kinds: ["xlsx"] },
  doc: { mime: "application/msword", kinds: ["ole"] },
  xls: { mime: "application/vnd.ms-excel", kinds: ["ole"] },
  // Detached signatures: OpenPGP (armored text or binary packets) or PKCS#7 (DER).
  sig: { mime: "application/pgp-signature", kinds: ["text", "pgp", "der"] },
};

export const ALLOWED_EXTENSIONS = Object.keys(ALLOWED);

const starts = (b: Uint8Array, sig: number[], at = 0) => sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function includes(b: Uint8Array, needle: string): boolean {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(needle, 0, "latin1");
}

/** Text: no control characters other than tab, line breaks, form feed and escape (any 8-bit encoding passes). */
function isText(b: Uint8Array): boolean {
  for (const x of b)
    if (x < 0x20 && x !== 0x09 && x !== 0x0a && x !== 0x0b && x !== 0x0c && x !== 0x0d && x !== 0x1b)
      return false;
  return true;
}

export function sniff(b: Uint8Array): Kind | undefined {
  if (starts(b, [0xff, 0xd8, 0xff])) return "jpeg";
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts(b, ascii("GIF87a")) || starts(b, ascii("GIF89a"))) return "gif";
  if (starts(b, ascii("%PDF-"))) return "pdf";
  if (starts(b, ascii("Rar!\x1a\x07"))) return "rar";
  if (starts(b, ascii("PK\x03\x04")) || starts(b, ascii("PK\x05\x06"))) {
    // Entry names are stored uncompressed, so the parts that make a document are visible as plain bytes.
    if (includes(b, "[Content_Types].xml") && includes(b, "word/")) return "docx";
    if (includes(b, "[Content_Types].xml") && includes(b, "xl/")) return "xlsx";
    return "zip";
  }
  if (starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return "ole";
  if (isText(b)) return "text";
  const first = b[0] ?? 0;
  // OpenPGP signature packet (tag 2): old format 0x88-0x8b, new format 0xc2.
  if ((first >= 0x88 && first <= 0x8b) || first === 0xc2) return "pgp";
  if (first === 0x30) return "der";
  return undefined;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

export type Checked = { ok: true; mime: string } | { ok: false; reason: string };

export function checkFile(name: string, bytes: Uint8Array): Checked {
  const ext = extensionOf(name);
  const allowed = ALLOWED[ext];
  if (!allowed) {
    return { ok: false, reason: `file type not allowed; use one of: ${ALLOWED_EXTENSIONS.join(", ")}` };
  }
  if (bytes.byteLength === 0) return { ok: false, reason: "the file is empty" };
  const kind = sniff(bytes);
  if (!kind || !allowed.kinds.includes(kind)) {
    return { ok: false, reason: `the file's content is not a valid .${ext} file` };
  }
  return { ok: true, mime: allowed.mime };
}
