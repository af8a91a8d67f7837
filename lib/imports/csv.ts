import { StringDecoder } from "node:string_decoder";

/**
 * A streaming CSV reader (RFC 4180 and what spreadsheets write): quoted fields with `""` escapes and line breaks
 * inside, any one-character delimiter, CRLF, LF or CR line ends, a UTF-8 BOM. It holds one record at a time, never
 * the file; a field over `maxField` characters (an unclosed quote swallowing the file, usually) stops it with an
 * error naming the line.
 */
export interface CsvRecord {
  fields: string[];
  /** The line the record starts on, 1-based. */
  line: number;
  /** Bytes of input read when the record was complete (for progress). */
  bytes: number;
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvError";
  }
}

export interface CsvOptions {
  delimiter?: string;
  maxField?: number;
  maxFields?: number;
}

export async function* parseCsv(
  input: AsyncIterable<Buffer | Uint8Array | string>,
  opts: CsvOptions = {},
): AsyncGenerator<CsvRecord> {
  const delim = opts.delimiter ?? ",";
  if (delim.length !== 1 || delim === '"' || delim === "\r" || delim === "\n")
    throw new Error("bad delimiter");
  const maxField = opts.maxField ?? 64 * 1024;
  const maxFields = opts.maxFields ?? 1000;
  const decoder = new StringDecoder("utf8");

  let fields: string[] = [];
  let field = "";
  /** Inside quotes. */
  let quoted = false;
  /** Inside quotes, a `"` was seen: an escaped quote if another follows, else the closing one. */
  let quotePending = false;
  /** The current field has content (a later `"` is then text, as in `a"b`). */
  let inField = false;
  /** The current record has content (blank lines are skipped). */
  let started = false;
  let prevCR = false;
  let line = 1;
  let recordLine = 1;
  let bytes = 0;
  let first = true;
  const ready: CsvRecord[] = [];

  const append = (ch: string) => {
    field += ch;
    if (field.length > maxField) {
      throw new CsvError(`a field longer than ${maxField} characters (an unclosed quote?)`, recordLine);
    }
  };
  const endField = () => {
    fields.push(field);
    if (fields.length > maxFields) throw new CsvError(`more than ${maxFields} columns`, recordLine);
    field = "";
    inField = false;
    started = true;
  };
  const endRecord = () => {
    if (started) {
      endField();
      ready.push({ fields, line: recordLine, bytes });
    }
    fields = [];
    field = "";
    inField = false;
    started = false;
    recordLine = line;
  };

  const feed = (text: string) => {
    for (const ch of text) {
      if (prevCR && ch === "\n") {
        prevCR = false;
        if (quoted && !quotePending) field += ch;
        continue;
      }
      prevCR = false;
      if (quotePending) {
        quotePending = false;
        if (ch === '"') {
          append('"');
          continue;
        }
        quoted = false;
      } else if (quoted) {
        if (ch === '"') quotePending = true;
        else {
          if (ch === "\r" || ch === "\n") {
            line++;
            prevCR = ch === "\r";
          }
          append(ch);
        }
        continue;
      }
      if (ch === delim) endField();
      else if (ch === "\r" || ch === "\n") {
        line++;
        prevCR = ch === "\r";
        endRecord();
      } else if (ch === '"' && !inField) {
        quoted = true;
        inField = true;
        started = true;
      } else {
        append(ch);
        inField = true;
        started = true;
      }
    }
  };

  for await (const chunk of input) {
    const buf =
      typeof chunk === "string" ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    bytes += buf.length;
    let text = decoder.write(buf);
    if (first && text.length) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    feed(text);
    yield* ready.splice(0);
  }
  feed(decoder.end());
  if (quoted && !quotePending) throw new CsvError("a quoted field is not closed", recordLine);
  endRecord();
  yield* ready.splice(0);
}
