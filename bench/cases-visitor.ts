import pg from "pg";
import { pgSession } from "../lib/db/client";
import { makeApp } from "../lib/testing/factories";
import { throughputCase, type Session } from "./harness";
import { call as callApi, pool } from "./load";

/**
 * The visitors' side of the API: the messenger's boot on a returning device (each page view of a site with the
 * messenger makes one: the device's visitor, a new token pair, the messenger's settings and the unread count) and
 * a visitor's message in their conversation, each against the bare replay of its SQL. In an app of its own,
 * removed afterwards: its messages would otherwise stay in the dataset, and later runs' searches would find the
 * dataset's words only past the newest parts (lib/search/statements.ts RECENT_WINDOW).
 */
const DEVICES = Number(process.env.BENCH_VISITOR_DEVICES ?? 500);
const CONCURRENCY = Number(process.env.BENCH_WRITE_CONCURRENCY ?? 16);

function call(s: Session, path: string, form: Record<string, string>, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return callApi<Record<string, unknown>>(s.api.url, { method: "POST", path, form, headers });
}

export async function benchVisitor(s: Session): Promise<void> {
  const made = await makeApp(s.db.db, { name: "Bench visitors" });
  try {
    await visitorCases(s, made.app.id, made.token);
  } finally {
    const c = new pg.Client(pgSession(s.ds.url));
    await c.connect();
    await c.query("DELETE FROM apps WHERE id = $1", [made.app.id]);
    await c.end();
  }
}

async function visitorCases(s: Session, appId: bigint, token: string): Promise<void> {
  const settings = await fetch(`${s.api.url}/api/v2/apps/${appId}/messenger`, {
    headers: { authorization: `Token ${token}` },
  });
  const key = ((await settings.json()) as { data: { public_key: string } }).data.public_key;
  const run = Date.now().toString(36);
  const device = (i: number) => `bench-${run}-device-${i % DEVICES}`;
  // The devices' first boots (each makes its visitor) and a conversation for each visitor, before the cases.
  const visitors = await pool(DEVICES, 8, async (i) => {
    const boot = await call(s, "/api/v2/messenger/boot", { key, device_id: device(i) });
    const token = boot.access_token as string;
    const started = await call(s, "/api/v2/messenger/conversations", { body: "Hello, a question" }, token);
    return { token, conversation: (started.conversation as { id: number }).id };
  });
  await throughputCase(
    s,
    "visitor",
    `messenger boot, a returning device (${CONCURRENCY} concurrent)`,
    (i) => ({ method: "POST", path: "/api/v2/messenger/boot", form: { key, device_id: device(i) } }),
    { concurrency: CONCURRENCY, freshTokens: true },
  );
  await throughputCase(
    s,
    "visitor",
    `visitor message in their conversation (${CONCURRENCY} concurrent, ${DEVICES} visitors)`,
    (i) => {
      const v = visitors[i % visitors.length]!;
      return {
        method: "POST",
        path: `/api/v2/messenger/conversations/${v.conversation}/reply`,
        headers: { authorization: `Bearer ${v.token}` },
        form: { body: "One more detail about my order" },
      };
    },
    { concurrency: CONCURRENCY },
  );
}
