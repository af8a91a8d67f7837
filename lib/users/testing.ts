import type { Called } from "../testing/server";

/** Expects an error envelope and returns its meta. */
export function errorOf(r: Called, status: number, error: string) {
  if (r.status !== status || r.body.meta.error !== error) {
    throw new Error(`expected ${status} ${error}, got ${r.status}: ${r.text.slice(0, 400)}`);
  }
  return r.body.meta as unknown as { error_message: string; error_fields?: Record<string, string> };
}

/** Expects a 200 envelope and returns its data. */
export function ok<T = Record<string, unknown>>(r: Called): T {
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${r.text.slice(0, 400)}`);
  return r.body.data as T;
}
