import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import { openDb } from "../lib/db/client";
import { startServer, type RunningServer } from "../lib/compose/start";
import { makeSession } from "../lib/testing/factories";

/**
 * First load of a panel page in Chromium, as an operator who is logged in:
 *
 *   DATABASE_URL=postgresql://…/relay_bench_conv_100000 npx tsx bench/panel-load.ts /inbox [--runs 3]
 *     [--ready <css>] [--screenshot file.png] [--width 1280]
 *
 * Without BASE_URL a production server (needs `npx next build`) is started in this process on DATABASE_URL; with
 * BASE_URL the running server is measured (its DATABASE_URL must be the same database: the session is made there).
 * The operator is PANEL_ADMIN_EMAIL, else the default admin of the app with the most conversations.
 * Prints, per cold run (fresh browser context, empty cache): time until the page is usable (the `--ready` element,
 * by default the first conversation row on /inbox, visible), navigation timing, and the page's JavaScript: bytes
 * transferred and its gzip size.
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const pagePath = args.find((a, i) => a.startsWith("/") && !args[i - 1]?.startsWith("--")) ?? "/inbox";
const runs = Number(flag("runs") ?? 3);
const width = Number(flag("width") ?? 1280);
const READY: Record<string, string> = {
  "/inbox": '[data-testid="conversation-row"]',
  "/leads": 'main :is(tbody tr, [data-testid="lead-row"])',
};
const ready = flag("ready") ?? READY[pagePath.split("?")[0]!] ?? "main h1";
const shot = flag("screenshot");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required (the operator's session is created in that database)");
  const h = await openDb(url);
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    const email = process.env.PANEL_ADMIN_EMAIL;
    const admin = email
      ? await h.db.admin.findFirstOrThrow({ where: { email } })
      : await (async () => {
          const [top] = await h.db.conversation.groupBy({
            by: ["appId"],
            _count: { _all: true },
            orderBy: { _count: { appId: "desc" } },
            take: 1,
          });
          const app = await h.db.app.findFirstOrThrow({ where: top ? { id: top.appId } : {} });
          if (!app.defaultAdminId)
            throw new Error(`app ${app.id} has no default admin: set PANEL_ADMIN_EMAIL`);
          return h.db.admin.findUniqueOrThrow({ where: { id: app.defaultAdminId } });
        })();
    const session = await makeSession(h.db, admin.id);
    const base =
      process.env.BASE_URL ??
      (server = await startServer({
        db: h,
        config: { databaseUrl: url, port: 0, host: "127.0.0.1", seedDemo: false, redisUrl: undefined },
        log: () => undefined,
      })).url;

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    const rows: Record<string, string | number>[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const host = new URL(base).hostname;
      await context.addCookies([
        { name: "relay_session", value: session.cookie.split("=")[1]!, domain: host, path: "/" },
      ]);
      const page = await context.newPage();
      const scripts: Promise<{ url: string; bytes: number; gzip: number }>[] = [];
      page.on("response", (res) => {
        if (res.request().resourceType() !== "script") return;
        scripts.push(
          res
            .body()
            .then((b) => ({ url: res.url(), bytes: b.length, gzip: gzipSync(b).length }))
            .catch(() => ({ url: res.url(), bytes: 0, gzip: 0 })),
        );
      });
      await page.goto(base + pagePath, { waitUntil: "commit" });
      await page.locator(ready).first().waitFor({ state: "visible", timeout: 30_000 });
      const interactive = await page.evaluate(() => performance.now());
      await page.waitForLoadState("load");
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const js = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
          (r) => r.initiatorType === "script" || r.name.endsWith(".js"),
        );
        return {
          ttfb: n.responseStart,
          domContentLoaded: n.domContentLoadedEventEnd,
          load: n.loadEventEnd,
          jsTransferred: js.reduce((s, r) => s + r.transferSize, 0),
        };
      });
      const js = await Promise.all(scripts);
      if (shot && run === runs - 1) {
        await page.waitForTimeout(300);
        await page.screenshot({ path: shot });
      }
      rows.push({
        run: run + 1,
        "interactive ms": Math.round(interactive),
        "TTFB ms": Math.round(nav.ttfb),
        "DCL ms": Math.round(nav.domContentLoaded),
        "load ms": Math.round(nav.load),
        "JS files": js.length,
        "JS KB": Math.round(js.reduce((s, x) => s + x.bytes, 0) / 1024),
        "JS gzip KB": Math.round(js.reduce((s, x) => s + x.gzip, 0) / 1024),
        "JS transferred KB": Math.round(nav.jsTransferred / 1024),
      });
      await context.close();
    }
    const convs = await h.db.conversation.count();
    console.log(`${pagePath} at ${width}px, ${convs} conversations in the database, ready = ${ready}`);
    console.table(rows);
    const col = (k: string) => median(rows.map((r) => Number(r[k])));
    console.log(
      `median: interactive ${col("interactive ms")} ms, load ${col("load ms")} ms, JS gzip ${col("JS gzip KB")} KB`,
    );
  } finally {
    await browser?.close();
    await server?.close();
    await h.close().catch(() => undefined);
  }
}

await main();
