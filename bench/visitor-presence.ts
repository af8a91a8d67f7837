import pg from "pg";

/**
 * The messenger's HTTP heartbeats (POST /messenger/heartbeat, what the frame sends every ~20 s with its page) for
 * every visitor, `beats` times each, staggered over each period as visitors arrive at random, and what they wrote:
 * the UPDATEs and INSERTs PostgreSQL counted per table (pg_stat_user_tables) between before and after. Coalesced
 * presence writes mean about one write per visitor per PRESENCE_WRITE_EVERY_MS (60 s), not one per heartbeat.
 */
export interface PresenceResult {
  heartbeats: number;
  failed: number;
  seconds: number;
  /** users UPDATEs: presence, last heartbeat, page. */
  presenceWrites: number;
  /** Every table the run changed, by name: [updates, inserts]. */
  tables: Record<string, [number, number]>;
}

type Counts = Map<string, [number, number]>;

async function post(url: string, json: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(json),
  });
}

/** A new token pair for the visitor, from its refresh token (POST /messenger/refresh). */
export async function refreshVisitor(target: string, v: { token: string; refresh: string }): Promise<void> {
  const r = await post(`${target}/api/v2/messenger/refresh`, { refresh_token: v.refresh });
  if (r.status !== 200) throw new Error(`refresh: ${r.status} ${await r.text()}`);
  const pair = ((await r.json()) as { data: { access_token: string; refresh_token: string } }).data;
  Object.assign(v, { token: pair.access_token, refresh: pair.refresh_token });
}

/**
 * One heartbeat as the frame sends it (the same page each time); an access token that expired meanwhile (they
 * last 5 minutes) is refreshed first, as the frame does.
 */
export async function beatAsTheFrame(target: string, v: { token: string; refresh: string }): Promise<void> {
  const beat = () =>
    post(
      `${target}/api/v2/messenger/heartbeat`,
      { url: "https://shop.example/", title: "Shop", timezone_offset: 60 },
      v.token,
    );
  let r = await beat();
  if (r.status === 401) {
    await refreshVisitor(target, v);
    r = await beat();
  }
  if (r.status !== 200) throw new Error(`heartbeat: ${r.status} ${await r.text()}`);
  await r.arrayBuffer().catch(() => undefined);
}

async function tableCounts(db: pg.Client): Promise<Counts> {
  const r = await db.query<{ relname: string; upd: string; ins: string }>(
    "SELECT relname, n_tup_upd AS upd, n_tup_ins AS ins FROM pg_stat_user_tables",
  );
  return new Map(r.rows.map((x) => [x.relname, [Number(x.upd), Number(x.ins)]]));
}

// A server's connections publish their counts when idle, at the latest PGSTAT_IDLE_INTERVAL (10 s) after.
const STATS_SETTLE_MS = 11_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measurePresence<V>(opts: {
  url: string;
  visitors: V[];
  beats: number;
  beatMs: number;
  heartbeat: (visitor: V) => Promise<void>;
  concurrency?: number;
}): Promise<PresenceResult> {
  const db = new pg.Client({ connectionString: opts.url });
  await db.connect();
  try {
    await sleep(STATS_SETTLE_MS);
    const before = await tableCounts(db);
    const n = opts.visitors.length;
    let heartbeats = 0;
    let failed = 0;
    const t0 = performance.now();
    for (let b = 0; b < opts.beats; b++) {
      const start = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: opts.concurrency ?? 64 }, async () => {
          while (next < n) {
            const i = next++;
            const due = start + (i / n) * opts.beatMs;
            if (due > performance.now()) await sleep(due - performance.now());
            try {
              await opts.heartbeat(opts.visitors[i]!);
              heartbeats++;
            } catch (err) {
              if (!failed++) console.warn(`  heartbeat failed: ${String(err)}`);
            }
          }
        }),
      );
      // The next beat one period after this one began.
      const left = start + opts.beatMs - performance.now();
      if (b < opts.beats - 1 && left > 0) await sleep(left);
    }
    const seconds = (performance.now() - t0) / 1000;
    await sleep(STATS_SETTLE_MS);
    const after = await tableCounts(db);
    const tables: Record<string, [number, number]> = {};
    for (const [name, [upd, ins]] of after) {
      const [u0, i0] = before.get(name) ?? [0, 0];
      if (upd - u0 || ins - i0) tables[name] = [upd - u0, ins - i0];
    }
    return { heartbeats, failed, seconds, presenceWrites: tables.users?.[0] ?? 0, tables };
  } finally {
    await db.end();
  }
}

export const describePresence = (p: PresenceResult, beats: number) =>
  `  presence writes: ${p.presenceWrites} for ${p.heartbeats} heartbeats (${beats} per visitor, ${p.failed} ` +
  `failed, ${p.seconds.toFixed(0)} s); rows changed: ` +
  Object.entries(p.tables)
    .map(([t, [upd, ins]]) => `${t} ${upd} updated ${ins} inserted`)
    .join(", ");
