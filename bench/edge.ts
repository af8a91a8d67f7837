import http from "node:http";
import { performance } from "node:perf_hooks";
import { concurrentOffThread } from "./load";
import { startTestServer } from "../lib/testing/server";
import { makeApp } from "../lib/testing/factories";
import { getPing } from "../lib/compose/endpoints-ping";
import { VERSION_HEADER } from "../lib/api/headers";

/**
 * The cost of endpoint(): a trivial endpoint through the wrapper against the same response from a bare handler,
 * in one run — in-process (handler only) and over HTTP, served from the catalog (as the product does) and through
 * Next's catch-all route (as `next dev` does), beside a bare node:http server. Over HTTP the load comes from
 * another thread, and each row also gives the server thread's CPU per answer: on this 2-core machine the client's
 * speed caps the bare server's req/s, so "of bare" reads high as the server nears it; the CPU column does not.
 */
async function timeLoop(n: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t) / 1e3 / n;
}

/**
 * A 3 s load at 16 connections from a worker thread (a real client is another process), after a 1 s warm-up: the
 * answers per second, and the server thread's CPU per answer (its event loop's active time over the answers), which
 * does not depend on how fast the client is.
 */
async function load(url: string, headers: Record<string, string>, seconds = 3) {
  const u = new URL(url);
  const req = { path: u.pathname + u.search, headers };
  await concurrentOffThread(u.origin, () => req, { concurrency: 16, seconds: 1 });
  let from = performance.eventLoopUtilization();
  const sample = await concurrentOffThread(u.origin, () => req, {
    concurrency: 16,
    seconds,
    onStart: () => (from = performance.eventLoopUtilization()),
  });
  const busy = performance.eventLoopUtilization(from);
  return {
    rps: Math.round(sample.rps),
    errors: sample.failed,
    cpuUs: sample.n ? ((busy.active * 1000) / sample.n).toFixed(1) : "",
  };
}

export async function benchEdge(log = console.log) {
  const s = await startTestServer({ rateLimitPerSecond: 1e9, rateLimitBurst: 1e9 });
  try {
    const a = await makeApp(s.db);
    const bare = (_req: Request) =>
      Promise.resolve(Response.json({ data: { actor: "anonymous" }, meta: { status: 200 } }));
    const mk = (h: Record<string, string> = {}) => new Request(`${s.url}/api/ping`, { headers: h });
    const route = { params: Promise.resolve({}) };
    const usBare = await timeLoop(20_000, async () => (await bare(mk())).text());
    const usAnon = await timeLoop(20_000, async () => (await getPing.handle(mk(), route)).text());
    const usToken = await timeLoop(5_000, async () =>
      (await getPing.handle(mk({ authorization: `Token ${a.token}` }), route)).text(),
    );
    // API v3: the same empty endpoint with an access token (EdDSA verify, no database read) against the key.
    const exchanged = await s.call("/api/v3/auth/token", {
      method: "POST",
      headers: { authorization: `Token ${a.token}` },
      form: { grant_type: "api_key" },
    });
    const jwt = (exchanged.body.data as { access_token: string }).access_token;
    const v3 = (auth: string) => ({ authorization: auth, [VERSION_HEADER]: "3" });
    const usV3Key = await timeLoop(5_000, async () =>
      (await getPing.handle(mk(v3(`Token ${a.token}`)), route)).text(),
    );
    const usV3Jwt = await timeLoop(5_000, async () =>
      (await getPing.handle(mk(v3(`Bearer ${jwt}`)), route)).text(),
    );
    const baseline = http.createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end('{"data":{"actor":"anonymous"},"meta":{"status":200}}');
    });
    await new Promise<void>((r) => baseline.listen(0, "127.0.0.1", r));
    const port = (baseline.address() as { port: number }).port;
    const node = await load(`http://127.0.0.1:${port}/`, {});
    baseline.close();
    const anon = await load(`${s.url}/api/ping`, {});
    const token = await load(`${s.url}/api/ping`, { authorization: `Token ${a.token}` });
    const v3Key = await load(`${s.url}/api/v3/ping`, { authorization: `Token ${a.token}` });
    const v3Jwt = await load(`${s.url}/api/v3/ping`, { authorization: `Bearer ${jwt}` });
    const viaNext = await startTestServer(
      { rateLimitPerSecond: 1e9, rateLimitBurst: 1e9 },
      { apiThroughNext: true },
    );
    const b = await makeApp(viaNext.db);
    const nextToken = await load(`${viaNext.url}/api/ping`, { authorization: `Token ${b.token}` }).finally(
      () => viaNext.close(),
    );
    const rows = [
      { case: "handler, bare (in-process)", "µs/req": usBare.toFixed(1), "req/s": Math.round(1e6 / usBare) },
      { case: "handler, endpoint() no auth", "µs/req": usAnon.toFixed(1), "req/s": Math.round(1e6 / usAnon) },
      {
        case: "handler, endpoint() + token",
        "µs/req": usToken.toFixed(1),
        "req/s": Math.round(1e6 / usToken),
      },
      { case: "handler, v3 + API key", "µs/req": usV3Key.toFixed(1), "req/s": Math.round(1e6 / usV3Key) },
      {
        case: "handler, v3 + access token (JWT)",
        "µs/req": usV3Jwt.toFixed(1),
        "req/s": Math.round(1e6 / usV3Jwt),
      },
      ...(
        [
          ["HTTP, bare node:http", node],
          ["HTTP, server + endpoint() no auth", anon],
          ["HTTP, server + endpoint() + token", token],
          ["HTTP, v3 + API key", v3Key],
          ["HTTP, v3 + access token (JWT)", v3Jwt],
          ["HTTP, through Next's routing + token", nextToken],
        ] as const
      ).map(([name, r]) => ({
        case: name,
        // Server thread's CPU per answer; the load comes from another thread.
        "µs/req": r.cpuUs,
        "req/s": r.rps,
        "of bare": `${Math.round((100 * r.rps) / node.rps)}%`,
      })),
    ];
    log(`database: ${s.server.runtime.dbKind}`);
    console.table(rows);
    return {
      wrapperOverheadUs: usAnon - usBare,
      tokenAuthUs: usToken - usAnon,
      jwtOverKeyUs: usV3Jwt - usV3Key,
      rows,
    };
  } finally {
    await s.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchEdge();
  process.exit(0);
}
