/** Statement texts given a name so far; past the bound, new texts get "", pg's unnamed statement, planned each call. */
const named = new Map<string, string>();
const MAX_NAMED = 1000;

/**
 * Named statements are prepared once per connection and their plans reused: planning the write paths' statements
 * cost more than running them (the one-statement event ingest: 1.7 ms unnamed, 0.7 ms named). The bound keeps the
 * per-connection statement caches finite when texts vary (leads filters build their own).
 */
export function statementName(query: { sql: string }): string {
  let name = named.get(query.sql);
  if (name === undefined && named.size < MAX_NAMED) {
    name = `s${named.size}`;
    named.set(query.sql, name);
  }
  return name ?? "";
}
