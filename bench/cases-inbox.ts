import pg from "pg";
import { pgSession } from "../lib/db/client";
import { createSession, SESSION_COOKIE } from "../lib/auth/sessions";
import { latencyCase, throughputCase, type Session, type Target } from "./harness";

/** The Inbox's hot paths on the dataset: list first page, tab counts, a parts page, reply throughput. */
const LIST_P50: Target = { kind: "p50<", value: 20 };
const REPLY_RPS: Target = { kind: "rps>=", value: 300 };

export async function benchInbox(s: Session): Promise<void> {
  const c = new pg.Client(pgSession(s.ds.url));
  await c.connect();
  // A conversation of typical length near the top of the list, and open ones to reply to.
  const parts = await c.query<{ id: string; n: number }>(
    `SELECT id, parts_count AS n FROM conversations WHERE app_id = $1 AND parts_count >= 20
     ORDER BY last_update DESC LIMIT 1`,
    [s.ds.appId],
  );
  const open = await c.query<{ id: string }>(
    "SELECT id FROM conversations WHERE app_id = $1 AND NOT closed ORDER BY id LIMIT 2000",
    [s.ds.appId],
  );
  const operator = await c.query<{ admin_id: string }>(
    "SELECT admin_id FROM app_admins WHERE app_id = $1 ORDER BY admin_id LIMIT 1",
    [s.ds.appId],
  );
  await c.end();
  const app = s.ds.appId;
  const get = (path: string) => () => ({ path, headers: s.auth });
  await latencyCase(s, "inbox", "conversations: list first page", get(`/api/apps/${app}/conversations`), {
    target: LIST_P50,
  });
  await latencyCase(
    s,
    "inbox",
    "conversations: list first page (open)",
    get(`/api/apps/${app}/conversations?closed=false`),
    { target: LIST_P50 },
  );
  // The panel's own calls carry the operator's session cookie, not a token.
  const admin = operator.rows[0];
  if (admin) {
    const session = await createSession(s.db.db, BigInt(admin.admin_id));
    const cookie = { cookie: `${SESSION_COOKIE}=${session.cookieValue}` };
    await latencyCase(
      s,
      "inbox",
      "conversations: list first page (operator session)",
      () => ({ path: `/api/apps/${app}/conversations`, headers: cookie }),
      { target: LIST_P50 },
    );
  }
  await latencyCase(s, "inbox", "conversations: counts", get(`/api/apps/${app}/conversations/counts`), {
    target: LIST_P50,
  });
  // Under load: the list and the counts at 16 clients (a team's panels refreshing at once) against the replay.
  for (const [what, path] of [
    ["list first page", `/api/apps/${app}/conversations`],
    ["counts", `/api/apps/${app}/conversations/counts`],
  ] as const) {
    await throughputCase(s, "inbox", `conversations: ${what} (16 concurrent)`, get(path), {
      concurrency: 16,
      target: { kind: "rps>=base×", value: 0.5 },
    });
  }
  const conv = parts.rows[0];
  if (conv) {
    await latencyCase(s, "inbox", `parts page (${conv.n} parts)`, get(`/api/conversations/${conv.id}/parts`));
  }
  const ids = open.rows.map((r) => r.id);
  const concurrency = Number(process.env.BENCH_REPLY_CONCURRENCY ?? 16);
  await throughputCase(
    s,
    "inbox",
    `reply (${concurrency} concurrent, ${ids.length} conversations)`,
    (i) => ({
      method: "POST",
      path: `/api/conversations/${ids[i % ids.length]}/reply`,
      headers: s.auth,
      form: { body: "Thanks, looking into it", random_id: String(i + 1) },
    }),
    { concurrency, target: REPLY_RPS },
  );
}
