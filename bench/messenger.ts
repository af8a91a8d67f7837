import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { MESSENGER_DIR, serveMessengerAsset } from "../lib/messenger/assets";
import { hostPage, startHostSite } from "../lib/testing/host-page";
import type { Figure, Target } from "./harness";

/**
 * The messenger's budget: bundle sizes, and in Chromium, on a host page of another origin: the load
 * event → launcher drawn, the longest task on the host page, and a click → frame ready. No database: the bundle is
 * served by the server's own function (lib/messenger/assets.ts) on a bare node:http server, as the product
 * serves it in front of everything else.
 */
const RUNS = Number(process.env.BENCH_MESSENGER_RUNS ?? 15);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface BundleSize {
  file: string;
  bytes: number;
  gzip: number;
}

// Registered before anything else on the page: long tasks, the load event, the launcher's first frame on screen
// (the frame after its element is in the page), the click and the frame's ready.
const PROBE = `<script>
window.__m = { long: [] };
try { new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) { __m.long.push(e.duration); }); })
  .observe({ type: "longtask", buffered: true }); } catch (e) {}
addEventListener("load", function () { __m.load = performance.now(); });
new MutationObserver(function (_, o) {
  var host = document.querySelector("relay-messenger");
  if (!host) return;
  o.disconnect();
  requestAnimationFrame(function () { __m.drawn = performance.now(); });
  if (location.search === "?cold") { __m.click = performance.now(); host.shadowRoot.querySelector("button").click(); }
}).observe(document.documentElement, { childList: true, subtree: true });
</script>`;
const READY = 'Relay("onReady", function () { __m.ready = performance.now(); });';

interface Probe {
  long: number[];
  load?: number;
  drawn?: number;
  click?: number;
  ready?: number;
}

function figure(name: string, xs: number[], target?: Target): Figure {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return {
    group: "messenger",
    case: name,
    n: xs.length,
    p50: at(0.5),
    p99: at(0.99),
    rps: NaN,
    failed: 0,
    target,
  };
}

export function bundleSizes(dir = MESSENGER_DIR): BundleSize[] {
  // news.js: the launcher's badge and previews, loaded only when the frame has news (messenger/news-load.ts).
  return ["messenger.js", "news.js", "frame.js", "frame.css", "frame.html"].map((file) => {
    const body = fs.readFileSync(path.join(dir, file));
    return { file, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
}

export async function benchMessenger(log = console.log): Promise<{ figures: Figure[]; sizes: BundleSize[] }> {
  // Figures of the source as it is now.
  const built = spawnSync(process.execPath, [
    path.resolve(import.meta.dirname, "../scripts/build-messenger.mjs"),
  ]);
  if (built.status !== 0) throw new Error(`messenger build failed: ${String(built.stderr)}`);
  const sizes = bundleSizes();
  for (const s of sizes) log(`  ${s.file.padEnd(13)} ${String(s.bytes).padStart(6)} B, gzip ${s.gzip} B`);
  const loader = sizes[0]!;
  log(`  loader gzip ${loader.gzip} B: ${loader.gzip <= 3072 ? "within" : "OVER"} the 3 KB budget`);

  const assets = http.createServer((req, res) => {
    if (!serveMessengerAsset(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => assets.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(assets.address() as { port: number }).port}`;
  const site = await startHostSite({ "/": hostPage({ origin, key: "mk_bench", head: PROBE, calls: READY }) });
  // Another site than the messenger's (localhost, not 127.0.0.1), as a customer's site is: Chromium then runs the
  // frame in a process of its own, as it would there, rather than on the host page's main thread.
  const hostUrl = site.url.replace("127.0.0.1", "localhost");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
  const drawn: number[] = [];
  const longest: number[] = [];
  const preloaded: number[] = [];
  const cold: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const variant of ["", "?cold"]) {
        // A fresh context each run: nothing cached, as on a visitor's first page view.
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(hostUrl + "/" + variant);
        await page.waitForFunction(() => (window as unknown as { __m: Probe }).__m.ready !== undefined);
        // Long tasks are reported after they end: give the last one time to arrive.
        await page.waitForTimeout(100);
        const m = await page.evaluate(() => (window as unknown as { __m: Probe }).__m);
        await context.close();
        if (variant) {
          cold.push(m.ready! - m.click!);
        } else {
          drawn.push(m.drawn! - m.load!);
          preloaded.push(m.ready! - m.load!);
          longest.push(Math.max(0, ...m.long));
        }
      }
    }
  } finally {
    await browser.close();
    await site.close();
    assets.close();
  }
  return {
    sizes,
    figures: [
      figure("load event → launcher drawn (< 0: before it)", drawn, {
        kind: "p99<",
        value: 200,
      }),
      figure("longest task on the host page (0: none > 50 ms)", longest, {
        kind: "p99<",
        value: 50,
      }),
      figure("click → frame ready (frame not preloaded)", cold, { kind: "p99<", value: 300 }),
      figure("load event → frame ready (preloaded when idle)", preloaded),
    ],
  };
}
