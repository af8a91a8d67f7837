import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { startConversation, ok } from "../conversations/testing";
import { serverUrl } from "../db/testing";
import { makeApp, TEST_PASSWORD, unique } from "../testing/factories";
import { client } from "../testing/http";
import { startTestServer, type TestServer } from "../testing/server";

/** `/metrics` (who may read it, what it counts) and the log: one JSON line per request, no secret or body in it. */
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serverWith(config: Parameters<typeof startTestServer>[0] = {}) {
  const lines: string[] = [];
  const s = await startTestServer(config, { log: (l) => lines.push(l) });
  servers.push(s);
  return { s, lines };
}

function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/metrics`, { headers }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      })
      .on("error", reject);
  });
}

/** A sample's value, by its name and labels as printed (`name{a="b"}`). */
function sample(text: string, prefix: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(prefix + " ") || l.startsWith(prefix + "{"));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("/metrics", () => {
  it("counts requests per endpoint pattern, and reports sockets, queues and the pool", async () => {
    const { s } = await serverWith();
    const a = await makeApp(s.db);
    const api = client(s, a.token);
    for (let i = 0; i < 3; i++) ok(await api.get(`/api/apps/${a.app.id}/conversations`));
    const m = await scrape(s.url);
    expect(m.status).toBe(200);
    const key = 'relay_http_requests_total{method="GET",route="/apps/{id}/conversations",status="200"}';
    expect(sample(m.text, key)).toBeGreaterThanOrEqual(3);
    expect(m.text).toContain('relay_http_request_duration_seconds_bucket{le="0.001",method="GET"');
    expect(m.text).toContain("relay_eventlog_socket_lag_rows ");
    expect(m.text).toContain("relay_webhook_deliveries_due ");
    expect(m.text).toContain("relay_process_resident_memory_bytes ");
    if (serverUrl()) expect(sample(m.text, 'relay_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    // No raw paths as labels: the app's ID is not in any series.
    expect(m.text).not.toContain(`/apps/${a.app.id}/`);
  });

  it("is refused to a request a balancer forwarded, without METRICS_TOKEN", async () => {
    const { s } = await serverWith();
    const m = await scrape(s.url, { "x-forwarded-for": "203.0.113.9" });
    expect(m.status).toBe(403);
    expect(m.text).toMatch(/METRICS_TOKEN/);
  });

  it("asks for METRICS_TOKEN as a Bearer token when it is set", async () => {
    const token = unique("metrics-token-of-16");
    const { s } = await serverWith({ metricsToken: token });
    expect((await scrape(s.url)).status).toBe(401);
    expect((await scrape(s.url, { authorization: "Bearer wrong-token-of-sixteen" })).status).toBe(401);
    const m = await scrape(s.url, { authorization: `Bearer ${token}` });
    expect(m.status).toBe(200);
    expect(m.text).toContain("relay_http_requests_total");
  });
});

describe("the request log", () => {
  it("has one JSON line per request, with its ID, route, app, actor and duration, and no secret or body", async () => {
    const { s, lines } = await serverWith();
    const a = await makeApp(s.db);
    const api = client(s, a.token);
    const marker = unique("secret-body-words");
    const { id } = await startConversation(api, s.db, a.app.id, marker);
    const reply = await api.postForm(`/api/conversations/${id}/reply`, {
      body: `${marker} again`,
      from_admin: String(a.admin.id),
    });
    ok(reply);
    const login = await s.call("/api/auth/login", {
      method: "POST",
      json: { email: a.admin.email, password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));

    const requests = lines
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "request");
    const replied = requests.find((l) => l.req_id === reply.headers.get("x-request-id"));
    expect(replied).toMatchObject({
      level: "info",
      method: "POST",
      route: "/conversations/{id}/reply",
      path: `/api/conversations/${id}/reply`,
      status: 200,
      app: String(a.app.id),
      actor: "token",
    });
    expect(typeof replied?.ms).toBe("number");
    const all = lines.join("\n");
    for (const secret of [a.token, TEST_PASSWORD, marker]) expect(all).not.toContain(secret);
    const cookie = login.headers.get("set-cookie") ?? "";
    expect(all).not.toContain(cookie.split(";")[0]!.split("=")[1]);
  });
});
