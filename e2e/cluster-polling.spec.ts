import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { nginxInstalled, startCluster, type Cluster } from "../deploy/cluster";
import { createAdmin } from "./support/admin";
import { createDatabase, dropDatabase, serverDatabaseUrl } from "./support/databases";
import { logInThroughForm } from "./support/fixtures";
import { row, startVisitor } from "./support/inbox";

/**
 * Long-polling across instances: the panel, with WebSockets refused in the browser, behind the repository's nginx
 * configuration in front of three instances (deploy/nginx/relay.conf). Each poll of a session must reach the
 * instance holding it (nginx routes by the instance name that starts the session ID); a visitor's message written
 * through another instance arrives live. Needs PostgreSQL, Redis and nginx (CI's second pass).
 */
const base = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const OP = {
  appName: "Cluster Support",
  name: "Cleo Cluster",
  email: "cleo@cluster.test",
  password: "cluster-horse-battery",
};

test.skip(
  !base?.startsWith("postgres") || !redisUrl || !nginxInstalled(),
  "needs PostgreSQL, Redis and nginx",
);

let cluster: Cluster | undefined;
let token = "";
let dbUrl = "";
let tmp = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dbUrl = serverDatabaseUrl(base, 0)!.replace(/_e2e0$/, "_e2e_cluster");
  await createDatabase(dbUrl);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "relay-e2e-cluster-"));
  token = createAdmin(tmp, OP, { DATABASE_URL: dbUrl }).token ?? "";
  cluster = await startCluster({ DATABASE_URL: dbUrl, REDIS_URL: redisUrl!, SEED_DEMO: "0" });
});

test.afterAll(async () => {
  await cluster?.stop();
  if (dbUrl) await dropDatabase(dbUrl);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test("without WebSockets, long-polling keeps its instance behind nginx and gets messages written elsewhere", async ({
  browser,
  playwright,
}) => {
  const c = cluster!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.routeWebSocket(/\/socket\.io\//, (ws) => void ws.close());
  const polls: { status: number; sid: string | null }[] = [];
  context.on("response", (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith("/socket.io/") && u.searchParams.get("transport") === "polling")
      polls.push({ status: r.status(), sid: u.searchParams.get("sid") });
  });
  // A visitor writes through the third instance directly, not through nginx.
  const elsewhere = await playwright.request.newContext({
    baseURL: c.instances[2]!.url,
    extraHTTPHeaders: { Authorization: `Token ${token}` },
  });
  const page = await context.newPage();
  try {
    await logInThroughForm(page, OP, `${c.url}/login`);
    await expect(page).toHaveURL(/\/inbox/);
    await expect(page.getByTestId("connection-status")).toHaveAttribute("data-state", "connected", {
      timeout: 30_000,
    });
    await expect(async () => {
      const v = await startVisitor(elsewhere, `Across instances ${Date.now()}`);
      await expect(row(page, v.conversation)).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    const withSession = polls.filter((p) => p.sid !== null);
    // Several polls of a session, through nginx's round robin, and none reached an instance that did not hold it
    // (which answers 400 "Session ID unknown").
    expect(withSession.length).toBeGreaterThan(2);
    expect(polls.filter((p) => p.status !== 200)).toEqual([]);
    expect(new Set(withSession.map((p) => p.sid!.split(".")[0])).size).toBeGreaterThanOrEqual(1);
    for (const p of withSession) expect(p.sid).toMatch(/^[abc]\./);
  } finally {
    await context.close();
    await elsewhere.dispose();
  }
});
