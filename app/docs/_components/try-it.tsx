"use client";

import { useId, useState, type FormEvent } from "react";

interface Answer {
  status: number;
  text: string;
}

/**
 * Try it: the endpoint's example request, editable, sent from this page to this server with a pasted token or, with
 * none, the operator's own session (its CSRF token read from /api/auth/me, as the panel does). The answer is shown
 * as it came. A multipart upload is left to the curl example: a file cannot be typed here. A session-only endpoint
 * offers no token field: it would refuse any token pasted there.
 */
export function TryIt({
  method,
  url,
  body,
  multipart,
  visitor,
  sessionOnly,
}: {
  method: string;
  /** The version's base and the path with the example's values, and its query string. */
  url: string;
  body: Record<string, unknown> | undefined;
  multipart: boolean;
  /** A visitor endpoint: only a visitor's access token works, never a session. */
  visitor: boolean;
  /** Only an operator's session may call it: an API token is refused. */
  sessionOnly: boolean;
}) {
  const id = useId();
  const [target, setTarget] = useState(url);
  const [json, setJson] = useState(body ? JSON.stringify(body, null, 2) : "");
  const [token, setToken] = useState("");
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const hasBody = method !== "GET" && method !== "DELETE";

  const send = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setAnswer(null);
    let payload: string | undefined;
    if (hasBody && json.trim()) {
      try {
        payload = JSON.stringify(JSON.parse(json));
      } catch {
        setError("The body is not valid JSON.");
        return;
      }
    }
    setSending(true);
    try {
      const headers: Record<string, string> = payload ? { "content-type": "application/json" } : {};
      if (token.trim()) headers.authorization = `${visitor ? "Bearer" : "Token"} ${token.trim()}`;
      else if (hasBody) {
        const me = await fetch("/api/auth/me", { credentials: "same-origin" });
        const csrf = me.ok
          ? ((await me.json()) as { data?: { csrf_token?: string } }).data?.csrf_token
          : undefined;
        if (csrf) headers["x-csrf-token"] = csrf;
      }
      const r = await fetch(target, { method, headers, body: payload, credentials: "same-origin" });
      const text = await r.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (a file, an HTML error page): shown as it came.
      }
      setAnswer({ status: r.status, text: shown });
    } catch (err) {
      setError(`The request did not reach the server: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setSending(false);
    }
  };

  return (
    <details className="rounded-lg border border-slate-200">
      <summary className="cursor-pointer px-4 py-2 text-sm font-medium text-slate-800">Try it</summary>
      {multipart ? (
        <p className="px-4 pb-3 text-sm text-slate-600">
          This endpoint takes a file: send it with the curl example.
        </p>
      ) : (
        <form
          onSubmit={(e) => void send(e)}
          className="space-y-3 px-4 pb-4"
          aria-label={`Try ${method} ${url}`}
        >
          <label className="block text-sm" htmlFor={`${id}-url`}>
            <span className="font-mono text-xs text-slate-600">{method}</span> URL
          </label>
          <input
            id={`${id}-url`}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
          />
          {sessionOnly ? (
            <p className="text-sm text-slate-600">
              Sent with your operator session (API tokens are refused here).
            </p>
          ) : (
            <>
              <label className="block text-sm" htmlFor={`${id}-token`}>
                {visitor ? "Visitor access token" : "API token (empty: your operator session)"}
              </label>
              <input
                id={`${id}-token`}
                type="password"
                autoComplete="off"
                value={token}
                onChange={(e) => setToken(e.target.value)}
                className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
              />
            </>
          )}
          {hasBody && (
            <>
              <label className="block text-sm" htmlFor={`${id}-body`}>
                Body (JSON)
              </label>
              <textarea
                id={`${id}-body`}
                rows={6}
                value={json}
                onChange={(e) => setJson(e.target.value)}
                className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
              />
            </>
          )}
          <button
            type="submit"
            disabled={sending}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
          >
            {sending ? "Sending…" : "Send request"}
          </button>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          {answer && (
            <figure aria-label="Answer" className="overflow-hidden rounded-lg bg-slate-900">
              <figcaption
                role="status"
                className="border-b border-slate-700 px-4 py-2 text-xs text-slate-300"
              >
                Answer · {answer.status}
              </figcaption>
              <pre className="max-h-96 overflow-auto p-4 text-xs text-slate-100">
                <code>{answer.text}</code>
              </pre>
            </figure>
          )}
        </form>
      )}
    </details>
  );
}
