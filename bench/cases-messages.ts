import type { Figure } from "./harness";
import { openEmailBench } from "./email-setup";
import { pct, sequential } from "./load";
import { printTable } from "./table";
import { makeApp } from "../lib/testing/factories";
import { messagesTriggeredBy, triggerSnapshot } from "../lib/messages/triggers";

/**
 * Proactive messages on a server of their own (bench/email-setup.ts: a fresh PostgreSQL database when DATABASE_URL
 * names one, else PGlite in memory).
 *
 * 1. Matching: BENCH_MESSAGES (100) active messages in one app (page views with URL patterns, the site's own
 *    events, message events of each other); the cost of deciding which messages each of 100,000 tracked events
 *    triggers, from the in-memory snapshot the log's reader uses (no query). Target p99 < 1 ms.
 * 2. Statistics of a message with BENCH_SENDS (1,000,000) sends over 90 days and a 10 % control group: the sends
 *    written in SQL with the counts their events keep (what recording them one by one leaves), then GET …/stats
 *    200 times one after another. Target p99 < 100 ms.
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const SENDS = Number(process.env.BENCH_SENDS ?? 1_000_000);
const EVENTS = 100_000;

const round = (x: number) => Math.round(x * 1000) / 1000;

async function matching(b: Awaited<ReturnType<typeof openEmailBench>>, appId: bigint, adminId: bigint) {
  const kinds = ["$page_view", "viewed_pricing", "added_to_cart", "signed_up", "$message_read"];
  const rows = Array.from({ length: MESSAGES }, (_, i) => {
    const event = kinds[i % kinds.length]!;
    return {
      appId,
      name: `Bench ${i}`,
      kind: "chat",
      content: { sender: Number(adminId), body: `Message ${i}` },
      trigger:
        event === "$page_view"
          ? { event, url: `https://shop.test/page-${i % 20}*` }
          : event === "$message_read"
            ? { event, message: i }
            : { event },
      frequency: { type: "once" },
    };
  });
  await b.db.autoMessage.createMany({ data: rows });
  const snap = await triggerSnapshot(b.db, [appId]);
  const events = Array.from({ length: EVENTS }, (_, i) => {
    const name = kinds[i % kinds.length]!;
    return {
      appId,
      name,
      props:
        name === "$page_view" ? { url: `https://shop.test/page-${i % 40}/x?i=${i}` } : { message: i % 150 },
    };
  });
  const took: number[] = [];
  let matched = 0;
  for (const e of events) {
    const t = performance.now();
    matched += messagesTriggeredBy(snap, e).length;
    took.push(performance.now() - t);
  }
  const seconds = took.reduce((a, x) => a + x, 0) / 1000;
  return {
    group: "messages",
    case: `matching: which of ${MESSAGES} active messages a tracked event triggers (in memory)`,
    n: EVENTS,
    p50: round(pct(took, 50)),
    p99: round(pct(took, 99)),
    rps: Math.round(EVENTS / seconds),
    failed: 0,
    target: { kind: "p99<", value: 1 },
    extra: { matchedPerEvent: round(matched / EVENTS) },
  } satisfies Figure;
}

async function statistics(b: Awaited<ReturnType<typeof openEmailBench>>, app: { id: bigint; token: string }) {
  const adminId = (await b.db.app.findUniqueOrThrow({ where: { id: app.id } })).defaultAdminId!;
  const m = await b.db.autoMessage.create({
    data: {
      appId: app.id,
      name: "Bench statistics",
      kind: "chat",
      content: { sender: Number(adminId), body: "Hi" },
      trigger: { event: "bench_stats" },
      frequency: { type: "again", days: 1 },
      controlPercent: 10,
    },
  });
  const t = performance.now();
  // 10,000 users with 100 sends each, spread over 90 days; a tenth held back; reads, clicks, replies and goals on
  // shares of them, as their events would have set them.
  await b.db.$executeRaw`
    INSERT INTO users (app_id, user_id) SELECT ${app.id}, 'bench-stats-' || g FROM generate_series(1, 10000) g`;
  await b.db.$executeRaw`
    INSERT INTO message_sends (message_id, app_id, user_id, trigger_event_id, control, state, due_at, created,
      sent_at, read_at, replied_at, goal_at)
    SELECT ${m.id}, ${app.id}, u.id, g, g % 10 = 0, CASE WHEN g % 10 = 0 THEN 'held' ELSE 'sent' END, d, d,
      CASE WHEN g % 10 = 0 THEN NULL ELSE d END, CASE WHEN g % 3 = 0 THEN d END, CASE WHEN g % 7 = 0 THEN d END,
      CASE WHEN g % 11 = 0 THEN d END
    FROM generate_series(1, ${SENDS}) g
    CROSS JOIN LATERAL (SELECT now() - (g % 90) * INTERVAL '1 day' AS d) t
    JOIN users u ON u.app_id = ${app.id} AND u.user_id = 'bench-stats-' || (g % 10000 + 1)`;
  await b.db.$executeRaw`
    INSERT INTO message_stats (message_id, day, control, kind, n)
    SELECT message_id, (created AT TIME ZONE 'UTC')::date, control, k.kind, count(*)
    FROM message_sends s
    CROSS JOIN LATERAL (VALUES ('sent', true), ('read', s.read_at IS NOT NULL),
      ('replied', s.replied_at IS NOT NULL), ('goal', s.goal_at IS NOT NULL)) AS k(kind, counted)
    WHERE s.message_id = ${m.id} AND k.counted AND (k.kind <> 'read' OR NOT s.control)
      AND (k.kind <> 'replied' OR NOT s.control)
    GROUP BY 1, 2, 3, 4`;
  const setup = Math.round((performance.now() - t) / 1000);
  const sample = await sequential(
    b.server.url,
    () => ({
      method: "GET",
      path: `/api/apps/${app.id}/messages/${m.id}/stats`,
      headers: { authorization: `Token ${app.token}` },
    }),
    { n: 200, warmup: 10 },
  );
  return {
    group: "messages",
    case: `statistics of a message with ${SENDS.toLocaleString("en")} sends over 90 days`,
    ...sample,
    target: { kind: "p99<", value: 100 },
    extra: { setupSeconds: setup },
  } satisfies Figure;
}

export async function benchMessages(log: (l: string) => void = console.log): Promise<Figure[]> {
  const b = await openEmailBench();
  log(`  ${b.database}, server ${b.server.url}`);
  const figures: Figure[] = [];
  try {
    const { app, admin, token } = await makeApp(b.db);
    figures.push(await matching(b, app.id, admin.id));
    figures.push(await statistics(b, { id: app.id, token }));
    for (const f of figures)
      log(`  ${f.case}: n=${f.n} p50 ${f.p50.toFixed(3)} ms p99 ${f.p99.toFixed(3)} ms`);
  } finally {
    await b.close();
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(await benchMessages());
  process.exit(0);
}
