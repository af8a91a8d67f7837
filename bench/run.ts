import fs from "node:fs";
import path from "node:path";
import { benchEdge } from "./edge";
import { benchRealtime } from "./realtime";
import { benchEmail } from "./cases-email";
import { benchMessages } from "./cases-messages";
import { benchMessenger } from "./messenger";
import { benchVisitorSockets } from "./visitor-sockets";
import { benchCluster } from "./cluster";
import { ensureDataset, type DatasetInfo } from "./dataset";
import { openSession, type Figure } from "./harness";
import { benchLeads } from "./cases-leads";
import { benchInbox } from "./cases-inbox";
import { benchReports } from "./cases-reports";
import { benchWebhooks } from "./cases-webhooks";
import { benchBulk } from "./cases-bulk";
import { benchSearch } from "./cases-search";
import { benchImport, benchUsers } from "./cases-users";
import { benchVisitor } from "./cases-visitor";
import { met, printTable, ratio } from "./table";

/**
 * `npm run bench [-- group…] [--rebuild]`: groups leads, inbox, search, reports, webhooks, bulk, users, import, visitor, realtime,
 * edge, messenger, visitor-sockets, cluster, email, messages (all by default; BENCH_VISITORS sets visitor-sockets' sockets, 10,000 by default).
 * email (bench/cases-email.ts) starts its own server and SMTP sink, on a fresh PostgreSQL database with DATABASE_URL,
 * else on PGlite in memory; BENCH_EMAILS (10,000), BENCH_CONTINUITY_REPLIES (300) and BENCH_INBOUND (200) size it.
 * PostgreSQL (DATABASE_URL) for everything but edge and messenger (Chromium); REDIS_URL for realtime. BENCH_USERS sets the dataset size
 * (1,000,000 by default; conversations are a tenth of it, parts 20 per conversation).
 * Prints one table and writes bench/results.json. BENCH_PROFILE=1 CPU-profiles the server under each API case
 * (bench/profile.ts); BENCH_TRACES=1 prints the SQL each case's baseline replays, and with BENCH_TRACES_DIR also
 * writes it whole, with its values, one JSON file per case.
 * Compare runs on datasets built fresh (`--rebuild`): a reused one is vacuumed, but keeps what earlier runs wrote
 * into the dataset's app (the replies, so that a search finds the dataset's words only past the newest parts) and
 * the users table's growth from their imports (1M at 2026-11-28: `$sessions` range 31 → 183 ms, planned as a scan);
 * a reused dataset prints how many parts and users earlier runs wrote into it (results.json: dataset.earlierWrites).
 */
process.env.CHECKPOINT_DISABLE = "1";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const GROUPS = [
  "leads",
  "inbox",
  "search",
  "reports",
  "webhooks",
  "bulk",
  "users",
  "import",
  "visitor",
  "realtime",
  "edge",
  "messenger",
  "visitor-sockets",
  "cluster",
  "email",
  "messages",
] as const;
const args = process.argv.slice(2);
const chosen = args.filter((a) => !a.startsWith("--"));
for (const g of chosen) {
  if (!(GROUPS as readonly string[]).includes(g)) {
    console.error(`unknown group ${g}; choose among: ${GROUPS.join(", ")}`);
    process.exit(2);
  }
}
const want = (g: (typeof GROUPS)[number]) => chosen.length === 0 || chosen.includes(g);

const base = process.env.DATABASE_URL;
const onPg = base?.startsWith("postgres") ?? false;
const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  database: onPg ? "postgres" : "pglite",
  host: { cpus: (await import("node:os")).cpus().length, load: (await import("node:os")).loadavg() },
};
const figures: Figure[] = [];
let ds: DatasetInfo | undefined;

if (
  ["leads", "inbox", "search", "reports", "webhooks", "bulk", "users", "import", "visitor"].some((g) =>
    want(g as (typeof GROUPS)[number]),
  )
) {
  if (!onPg) {
    console.log("dataset benchmarks skipped: they need DATABASE_URL=postgres://…");
  } else {
    const t = Date.now();
    ds = await ensureDataset(base!, {
      users: Number(process.env.BENCH_USERS ?? 1_000_000),
      rebuild: process.env.BENCH_REBUILD === "1" || args.includes("--rebuild"),
    });
    console.log(
      `dataset ${ds.name}: ${ds.users.toLocaleString("en")} users (${ds.leads.toLocaleString("en")} leads), ` +
        `${ds.conversations.toLocaleString("en")} conversations, ${ds.parts.toLocaleString("en")} parts, ` +
        `${ds.events.toLocaleString("en")} events; ` +
        (ds.builtNow
          ? `made in ${ds.buildSeconds} s`
          : `reused (made in ${ds.buildSeconds} s, ready in ${Date.now() - t} ms)`),
    );
    results.dataset = { ...ds, appId: String(ds.appId), url: undefined };
    const s = await openSession(ds);
    try {
      if (want("leads")) {
        console.log("== Leads filters");
        await benchLeads(s);
      }
      if (want("inbox")) {
        console.log("== Inbox");
        await benchInbox(s);
      }
      if (want("search")) {
        console.log("== Search: messages, visitors, leads; with and beside the reply load");
        await benchSearch(s);
      }
      if (want("reports")) {
        console.log("== Reports: a year of the dataset");
        await benchReports(s);
      }
      if (want("webhooks")) {
        console.log("== Webhooks: delivery lag under the reply load");
        await benchWebhooks(s);
      }
      if (want("bulk")) {
        console.log("== Bulk: one job over many conversations");
        await benchBulk(s);
      }
      if (want("users")) {
        console.log("== Users: props, events");
        await benchUsers(s);
      }
      if (want("import")) {
        console.log("== CSV import");
        await benchImport(s);
      }
      if (want("visitor")) {
        console.log("== Visitors: messenger boot and messages");
        await benchVisitor(s);
      }
    } finally {
      figures.push(...s.figures);
      await s.close();
    }
  }
}
if (want("realtime")) {
  console.log("== Real-time: reply → message on 500 sockets");
  figures.push(...(await benchRealtime(console.log, ds?.url)));
}
if (want("edge")) {
  console.log("== API edge: endpoint() overhead");
  results.edge = await benchEdge();
}
if (want("messenger")) {
  console.log("== Messenger: bundle sizes, loader on a host page (Chromium)");
  const m = await benchMessenger(console.log);
  results.messenger = { sizes: m.sizes };
  figures.push(...m.figures);
}
if (want("visitor-sockets")) {
  console.log(`== Messenger sockets: ${process.env.BENCH_VISITORS ?? 10_000} visitors on one server`);
  figures.push(...(await benchVisitorSockets(console.log)));
}
if (want("cluster")) {
  console.log("== Cluster: three instances behind nginx, a SIGKILL and a rolling restart under load");
  figures.push(...(await benchCluster(console.log)));
}
if (want("email")) {
  console.log(
    `== Email: ${process.env.BENCH_EMAILS ?? 10_000} continuity emails, the delay, answers by SMTP`,
  );
  figures.push(...(await benchEmail(console.log)));
}
if (want("messages")) {
  console.log("== Messages: matching triggers in memory, statistics of a message with 1M sends");
  figures.push(...(await benchMessages(console.log)));
}

if (figures.length) {
  console.log(
    ds
      ? `\nPostgreSQL, dataset: ${ds.users.toLocaleString("en")} users (${ds.leads.toLocaleString("en")} leads), ` +
          `${ds.conversations.toLocaleString("en")} conversations, ${ds.parts.toLocaleString("en")} parts, ` +
          `${ds.events.toLocaleString("en")} events. ratio = API p50 / baseline p50 (bare node:http + pg, same SQL).`
      : "",
  );
  printTable(figures);
}
// A run of some groups replaces those groups' figures in results.json and keeps the others.
const file = path.join(import.meta.dirname, "results.json");
const ran = new Set(figures.map((f) => f.group));
const kept =
  chosen.length && fs.existsSync(file)
    ? ((JSON.parse(fs.readFileSync(file, "utf8")) as { figures?: Figure[] }).figures ?? []).filter(
        (f) => !ran.has(f.group),
      )
    : [];
results.figures = [...kept, ...figures.map((f) => ({ ...f, ratio: ratio(f), met: met(f) }))];
fs.writeFileSync(
  file,
  JSON.stringify(results, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v), 2),
);
console.log("wrote bench/results.json");
process.exit(0);
