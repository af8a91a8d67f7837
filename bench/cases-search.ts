import pg from "pg";
import { pgSession } from "../lib/db/client";
import type { Prisma } from "../lib/db/generated/client";
import { messagesStatement, usersStatement, type SearchInput } from "../lib/search/statements";
import { tsQueryText } from "../lib/search/query";
import { call, concurrentOffThread, sequential } from "./load";
import { latencyCase, push, type Session, type Target } from "./harness";

/**
 * Search on the dataset: the statements' plans (EXPLAIN ANALYZE, printed), latency per kind of query beside
 * the bare replay of the same SQL, then search and replies together: search latency while the reply load runs,
 * and the reply throughput with and without search load.
 */
const SEARCH_P50: Target = { kind: "p50<", value: 50 };
const SEARCH_P99: Target = { kind: "p99<", value: 200 };

const QUERIES: [string, string][] = [
  ["a rare word", "nonprofits"],
  ["a frequent word", "billing"],
  ["a note's word", "escalated"],
  ["two words, the last a prefix", "invoice fi"],
  ["a visitor's name", "Hiroshi"],
  ["an email fragment", "tanaka1"],
  ["a user ID fragment", "usr_4242"],
  ["two characters (prefixes only)", "us"],
];

function literal(q: Prisma.Sql): { text: string; values: unknown[] } {
  const plain = (v: unknown): unknown =>
    typeof v === "bigint" ? String(v) : Array.isArray(v) ? v.map(plain) : v;
  return { text: q.text, values: q.values.map(plain) };
}

async function explain(c: pg.Client, label: string, q: Prisma.Sql): Promise<string[]> {
  const { text, values } = literal(q);
  const r = await c.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  const lines = r.rows.map((x) => x["QUERY PLAN"]);
  console.log(`  EXPLAIN ${label}:\n${lines.map((l) => `    ${l}`).join("\n")}`);
  return lines;
}

export async function benchSearch(s: Session): Promise<void> {
  const app = s.ds.appId;
  const c = new pg.Client(pgSession(s.ds.url));
  await c.connect();
  const plans: Record<string, string[]> = {};
  const open = await c.query<{ id: string }>(
    "SELECT id FROM conversations WHERE app_id = $1 AND NOT closed ORDER BY id LIMIT 2000",
    [app],
  );
  try {
    await c.query("ANALYZE conversation_parts; ANALYZE users");
    for (const [, q] of QUERIES) {
      const input: SearchInput = { appId: app, q, kind: "all", limit: 20 };
      const tsq = tsQueryText(q);
      if (q.length >= 3 && tsq)
        plans[`messages: ${q}`] = await explain(
          c,
          `messages "${q}"`,
          messagesStatement(input, tsq, undefined),
        );
      // The users found and their conversations, as searchInbox asks for them: one statement.
      plans[`users and their conversations: ${q}`] = await explain(
        c,
        `users and their conversations "${q}"`,
        usersStatement(app, q, input),
      );
    }
  } finally {
    await c.end();
  }

  const path = (q: string) => `/api/apps/${app}/search?kind=all&limit=20&q=${encodeURIComponent(q)}`;
  for (const [label, q] of QUERIES) {
    await latencyCase(s, "search", `search: ${label} (${q})`, () => ({ path: path(q), headers: s.auth }), {
      target: SEARCH_P50,
      n: Number(process.env.BENCH_N ?? 100),
    });
  }
  // Page 2 from where page 1 ended, as the panel asks for it.
  const first = await call<{ next_cursor: string | null }>(s.api.url, {
    path: `${path("billing")}&state=open`,
    headers: s.auth,
  });
  await latencyCase(
    s,
    "search",
    "search: a frequent word, open, page 2",
    () => ({ path: `${path("billing")}&state=open&cursor=${first.next_cursor ?? ""}`, headers: s.auth }),
    { target: SEARCH_P50, n: Number(process.env.BENCH_N ?? 100), extra: { plans } },
  );

  // Replies alone, then replies while one operator after another searches (sequential, every query in turn).
  const ids = open.rows.map((r) => r.id);
  const concurrency = Number(process.env.BENCH_REPLY_CONCURRENCY ?? 16);
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  const reply = (tag: string) => (i: number) => ({
    method: "POST" as const,
    path: `/api/conversations/${ids[i % ids.length]}/reply`,
    headers: s.auth,
    form: { body: `Search bench ${tag} ${i}` },
  });
  const alone = await concurrentOffThread(s.api.url, reply("alone"), { concurrency, seconds });
  push(s, { group: "search", case: `reply (${concurrency} concurrent), no search load`, ...alone });
  const loaded = concurrentOffThread(s.api.url, reply("loaded"), { concurrency, seconds });
  const searchers = Number(process.env.BENCH_SEARCHERS ?? 2);
  const during = await Promise.all(
    Array.from({ length: searchers }, (_, k) =>
      sequential(s.api.url, (i) => ({ path: path(QUERIES[(i + k) % QUERIES.length]![1]), headers: s.auth }), {
        n: 100_000,
        seconds: seconds - 1,
      }),
    ),
  );
  const withSearch = await loaded;
  const lat = during.flatMap((d) => [d]);
  push(s, {
    group: "search",
    case: `reply (${concurrency} concurrent), with ${searchers} searching`,
    ...withSearch,
    extra: { searchesPerSecond: lat.reduce((a, d) => a + d.rps, 0) },
  });
  const worst = lat.reduce((a, d) => (d.p99 > a.p99 ? d : a));
  push(s, {
    group: "search",
    case: `search during the reply load (${searchers} searching, every query in turn)`,
    n: lat.reduce((a, d) => a + d.n, 0),
    failed: lat.reduce((a, d) => a + d.failed, 0),
    p50: Math.max(...lat.map((d) => d.p50)),
    p99: worst.p99,
    rps: lat.reduce((a, d) => a + d.rps, 0),
    error: lat.find((d) => d.error)?.error,
    target: SEARCH_P99,
  });
}
