/** A table as CSV (RFC 4180: quoted when needed, CRLF), the same cells the table view shows. */
export function toCsv(header: string[], rows: (string | number | null)[][]): string {
  const cell = (v: string | number | null) => {
    const s = v === null ? "" : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

/** Seconds as the tables show them: "" when there is no sample, else minutes with one decimal. */
export function minutes(secs: number | null): string {
  return secs === null ? "" : (secs / 60).toFixed(1);
}
