/**
 * The one CSV writer (RFC 4180: a cell quoted when it holds a delimiter, quote or line break; CRLF line ends), for
 * every file we hand out: the leads export on the server and the Reports page's downloads in the browser, so it
 * imports nothing. A text starting with = + - @, a tab or a carriage return gets a leading `'`, which spreadsheets
 * show instead of running the cell as a formula (CSV injection): such values come from visitors and operators.
 * Numbers are written as they are (a negative one is no formula).
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s: string;
  if (typeof v === "string") s = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  else if (Array.isArray(v)) return csvCell(v.map(String).join(";"));
  else if (typeof v === "object") return csvCell(JSON.stringify(v));
  else
    s = typeof v === "symbol" || typeof v === "function" ? "" : `${v as string | number | boolean | bigint}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record, with its CRLF. */
export function csvLine(cells: unknown[]): string {
  return cells.map(csvCell).join(",") + "\r\n";
}

/** A whole table: the header's line, then each row's. */
export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map(csvLine).join("");
}
