import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Parser, CsvError as ParseError, type Info, type Options } from "csv-parse";

/**
 * The CSV import's reader: csv-parse (RFC 4180 and what spreadsheets write) behind the small interface the import
 * uses. Records stream through with backpressure, a chunk of the file in memory at a time; a record over
 * `maxRecord` characters (an unclosed quote swallowing the file, usually) stops it with an error naming the line.
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
  /** Characters in one record, delimiters and quotes aside. */
  maxRecord?: number;
  maxFields?: number;
}

/**
 * Numbers each record as it is parsed: the parser reads ahead of its consumer, so its live counts are past the
 * record being read, and a parse error must name its own line. `push` is where the parser hands each record on,
 * with its counts as they were then; csv-parse's `info`/`on_record` would copy them into a new object per record,
 * a third of the parse time.
 */
class NumberingParser extends Parser {
  constructor(
    opts: Options,
    private readonly number: (fields: string[], info: Info) => CsvRecord,
  ) {
    super(opts);
  }

  override push(chunk: unknown): boolean {
    return super.push(chunk === null ? null : this.number(chunk as string[], this.info));
  }
}

/** Line breaks inside a record's quoted fields (CRLF counts once), to number the lines as an editor does. */
function breaks(fields: string[]): number {
  let n = 0;
  for (const f of fields) {
    if (f.includes("\n") || f.includes("\r")) n += f.match(/\r\n|\r|\n/g)!.length;
  }
  return n;
}

export async function* parseCsv(
  input: AsyncIterable<Buffer | Uint8Array | string>,
  opts: CsvOptions = {},
): AsyncGenerator<CsvRecord> {
  const maxRecord = opts.maxRecord ?? 1024 * 1024;
  const maxFields = opts.maxFields ?? 1000;
  /** Lines taken by the records parsed so far; blank lines come from the parser's own count. */
  let lines = 0;
  const lineAt = (info: Info) => 1 + lines + info.empty_lines;
  const parser = new NumberingParser(
    {
      delimiter: opts.delimiter ?? ",",
      // Files from spreadsheets and hand edits: any line end, a stray quote inside a field is text, blank lines
      // are skipped, and ragged rows reach the import (which reports them per row) rather than failing the file.
      record_delimiter: ["\r\n", "\n", "\r"],
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: maxRecord,
    },
    (fields, info) => {
      const line = lineAt(info);
      if (fields.length > maxFields) throw new CsvError(`more than ${maxFields} columns`, line);
      lines += 1 + breaks(fields);
      return { fields, line, bytes: info.bytes };
    },
  );
  const done = pipeline(Readable.from(input, { objectMode: false }), parser);
  // Its failure is the parser's, which the loop below throws; a consumer that stops early is no failure.
  done.catch(() => undefined);
  try {
    for await (const rec of parser as AsyncIterable<CsvRecord>) yield rec;
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    const line = lineAt(parser.info);
    if (err.code === "CSV_QUOTE_NOT_CLOSED") throw new CsvError("a quoted field is not closed", line);
    if (err.code === "CSV_MAX_RECORD_SIZE")
      throw new CsvError(`a row longer than ${maxRecord} characters (an unclosed quote?)`, line);
    throw new CsvError(err.message, line);
  } finally {
    parser.destroy();
  }
  await done;
}
