/**
 * JSON text of a value holding 64-bit integers (bigints): as numbers, or as strings for `id_as_string` callers.
 * The API's envelopes, the event log's payloads and webhook bodies are all written by it.
 */
export function toJson(body: unknown, idAsString: boolean): string {
  return JSON.stringify(body, (_k, v: unknown) =>
    typeof v === "bigint" ? (idAsString ? v.toString() : Number(v)) : v,
  );
}
