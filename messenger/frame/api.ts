import type { Boot, TokenPair } from "./types";

/**
 * The visitor API from the frame (same origin: /api/v2/messenger/…). The access token lives in memory only; the
 * refresh token also in this frame's localStorage (per app key). Each frame (tab) keeps its own token family:
 * a refresh token is single use, so a tab never refreshes with another tab's.
 */
const BASE = "/api/v2/messenger";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

type Listener = () => void;

export class Api {
  private access = "";
  private refreshToken = "";
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refreshing: Promise<void> | undefined;
  /** Called with each new pair (the socket reconnects with it). */
  onTokens: Listener = () => undefined;

  constructor(
    private readonly key: string,
    /** Boots again when the token family is gone (revoked, logged out): a new pair, same device. */
    private readonly reboot: () => Promise<TokenPair>,
  ) {}

  get token(): string {
    return this.access;
  }

  setTokens(t: TokenPair) {
    this.access = t.access_token;
    this.refreshToken = t.refresh_token;
    try {
      localStorage.setItem(`relay:${this.key}:refresh`, t.refresh_token);
    } catch {
      // Storage refused (a browser's third-party storage rules): memory is enough for this page.
    }
    clearTimeout(this.timer);
    // Before it expires, not at: a request under way with the old one still passes.
    this.timer = setTimeout(() => void this.refresh().catch(() => undefined), t.expires_in * 800);
    this.onTokens();
  }

  /** One refresh at a time: concurrent 401s wait for the same one. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const r = await send("POST", "/refresh", { refresh_token: this.refreshToken });
        this.setTokens(r as TokenPair);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 401) throw err;
        this.setTokens(await this.reboot());
      }
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    try {
      return (await send(method, path, body, this.access)) as T;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      await this.refresh();
      return (await send(method, path, body, this.access)) as T;
    }
  }

  /** A multipart POST (an attachment) with upload progress, which fetch does not report. */
  upload<T>(path: string, form: FormData, progress: (fraction: number) => void): Promise<T> {
    const once = () =>
      new Promise<T>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open("POST", BASE + path);
        xhr.setRequestHeader("Authorization", `Bearer ${this.access}`);
        xhr.upload.onprogress = (e) => e.lengthComputable && progress(e.loaded / e.total);
        xhr.onload = () => {
          try {
            resolve(unwrap(xhr.status, JSON.parse(xhr.responseText) as Envelope) as T);
          } catch (err) {
            reject(err instanceof ApiError ? err : new ApiError(xhr.status, "InternalError", "Bad answer"));
          }
        };
        xhr.onerror = () => reject(new ApiError(0, "NetworkError", "The upload failed"));
        xhr.send(form);
      });
    return once().catch(async (err: unknown) => {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      await this.refresh();
      return once();
    });
  }
}

interface Envelope {
  data?: unknown;
  meta?: { status?: number; error?: string; error_message?: string; message?: string };
}

function unwrap(status: number, body: Envelope): unknown {
  if (status >= 200 && status < 300) return body.data;
  const m = body.meta ?? {};
  throw new ApiError(status, m.error ?? "Error", m.error_message ?? m.message ?? `HTTP ${status}`);
}

export async function send(method: string, path: string, body?: unknown, token?: string): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
  });
  const json = (await r.json().catch(() => ({}))) as Envelope;
  return unwrap(r.status, json);
}

/** This frame's device: 18 random bytes, base64url, kept per app key (a new one after logout). */
export function deviceId(key: string, fresh = false): string {
  const name = `relay:${key}:device`;
  let id: string | null = null;
  try {
    id = fresh ? null : localStorage.getItem(name);
  } catch {
    // No storage: a device for this page only.
  }
  if (id) return id;
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  id = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  try {
    localStorage.setItem(name, id);
  } catch {
    // As above.
  }
  return id;
}

export function boot(key: string, device: string, origin: string | undefined): Promise<Boot> {
  return send("POST", "/boot", { key, device_id: device, ...(origin ? { origin } : {}) }) as Promise<Boot>;
}
