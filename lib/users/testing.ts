import type { Called, TestServer } from "../testing/server";

type Params = Record<string, unknown>;

function query(params: Params = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    q.set(k, typeof v === "string" ? v : typeof v === "bigint" ? v.toString() : JSON.stringify(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** A token's view of the API in tests: GET with query parameters, POST with a JSON body, DELETE with a query. */
export function client(s: TestServer, token: string) {
  const headers = { Authorization: `Token ${token}` };
  return {
    get: (path: string, params?: Params): Promise<Called> => s.call(path + query(params), { headers }),
    post: (path: string, body: Params = {}): Promise<Called> =>
      s.call(path, { method: "POST", headers, json: body }),
    form: (path: string, body: Record<string, string>): Promise<Called> =>
      s.call(path, { method: "POST", headers, form: body }),
    del: (path: string, params?: Params): Promise<Called> =>
      s.call(path + query(params), { method: "DELETE", headers }),
  };
}

export type Client = ReturnType<typeof client>;

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
