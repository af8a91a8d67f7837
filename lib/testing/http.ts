import type { Called, TestServer } from "./server";

type Params = Record<string, unknown>;

/** Query parameters as the API reads them: strings as they are, anything else as JSON; undefined left out. */
function query(params: Params = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    q.set(k, typeof v === "string" ? v : typeof v === "bigint" ? v.toString() : JSON.stringify(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** Who calls: an API token, or a logged-in browser session (its cookie, and its CSRF token on every call). */
export type Caller = string | { cookie: string; csrf: string };

/**
 * A caller's view of the API in tests. Each POST names its encoding, because the API accepts JSON, form and
 * multipart bodies and a test must say which one it exercises.
 */
export function client(s: TestServer, caller: Caller) {
  const headers: Record<string, string> =
    typeof caller === "string"
      ? { Authorization: `Token ${caller}` }
      : { cookie: caller.cookie, "x-csrf-token": caller.csrf };
  return {
    get: (path: string, params?: Params): Promise<Called> => s.call(path + query(params), { headers }),
    postJson: (path: string, json: unknown = {}): Promise<Called> =>
      s.call(path, { method: "POST", headers, json }),
    postForm: (path: string, form: Record<string, string> = {}): Promise<Called> =>
      s.call(path, { method: "POST", headers, form }),
    postMultipart: (path: string, body: FormData): Promise<Called> =>
      s.call(path, { method: "POST", headers, body }),
    del: (path: string, params?: Params): Promise<Called> =>
      s.call(path + query(params), { method: "DELETE", headers }),
  };
}

export type Client = ReturnType<typeof client>;
