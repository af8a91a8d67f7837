import http from "node:http";
import { startTestServer } from "../lib/testing/server";
import { makeApp } from "../lib/testing/factories";
import { getPing } from "../lib/compose/endpoints-ping";
import { VERSION_HEADER } from "../lib/api/headers";

/**
 * The cost of endpoint(): a trivial endpoint through the wrapper against the same response from a bare handler,
 * in one run — in-process (handler only) and over HTTP, served from the catalog (as the product does) and through
 * Next's catch-all route (as `next dev` does), beside a bare node:http server.
 */
async function timeLoop(n: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t) / 1e3 / n;
}

async function load(url: string, headers: Record<string, string>, seconds: number, concurrency = 16) {
  await run(url, headers, 1, concurrency);
  return run(url, headers, seconds, concurrency);
}

async function run(url: string, headers: Record<string, string>, seconds: number, concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const end = Date.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const worker = async () => {
    while (Date.now() < end) {
      await new Promise<void>((resolve) => {
        http
          .get(url, { agent, headers }, (res) => {
            res.resume();
            res.on("end", () => {
              if (res.statusCode === 200) done++;
              else errors++;
              resolve();
            });
          })
          .on("error", () => {
            errors++;
            resolve();
          });
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return { rps: Math.round(done / seconds), errors };
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
    const node = await load(`http://127.0.0.1:${port}/`, {}, 3);
    baseline.close();
    const anon = await load(`${s.url}/api/ping`, {}, 3);
    const token = await load(`${s.url}/api/ping`, { authorization: `Token ${a.token}` }, 3);
    const v3Key = await load(`${s.url}/api/v3/ping`, { authorization: `Token ${a.token}` }, 3);
    const v3Jwt = await load(`${s.url}/api/v3/ping`, { authorization: `Bearer ${jwt}` }, 3);
    const viaNext = await startTestServer(
      { rateLimitPerSecond: 1e9, rateLimitBurst: 1e9 },
      { apiThroughNext: true },
    );
    const b = await makeApp(viaNext.db);
    const nextToken = await load(`${viaNext.url}/api/ping`, { authorization: `Token ${b.token}` }, 3).finally(
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
      { case: "HTTP, bare node:http", "µs/req": "", "req/s": node.rps },
      { case: "HTTP, server + endpoint() no auth", "µs/req": "", "req/s": anon.rps },
      { case: "HTTP, server + endpoint() + token", "µs/req": "", "req/s": token.rps },
      { case: "HTTP, v3 + API key", "µs/req": "", "req/s": v3Key.rps },
      { case: "HTTP, v3 + access token (JWT)", "µs/req": "", "req/s": v3Jwt.rps },
      { case: "HTTP, through Next's routing + token", "µs/req": "", "req/s": nextToken.rps },
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
