import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect } from "vitest";
import { it } from "../testing/fixture";
import { makeSession } from "../testing/factories";
import { DEFAULT_VERSION, endpointsOf, type DocEndpoint } from "./reference";
import { samplesOf } from "./samples";

const run = promisify(execFile);

/** The GETs whose path names only objects the fixtures have: an app, a conversation, its user. */
function realIds(d: DocEndpoint, ids: { app: bigint; conversation: bigint; user: bigint }) {
  const names = [...d.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.length > 1) return undefined;
  if (names.length === 0) return {};
  if (d.path.startsWith("/apps/{id}")) return { id: String(ids.app) };
  if (d.path.startsWith("/conversations/{id}")) return { id: String(ids.conversation) };
  if (d.path.startsWith("/users/{id}")) return { id: String(ids.user) };
  return undefined;
}

it("runs the curl example of every GET with an envelope and gets the success envelope", async ({
  server,
  app,
  conversation,
}) => {
  const ids = { app: app.app.id, conversation: conversation.id, user: conversation.userId };
  const gets = endpointsOf(DEFAULT_VERSION).filter(
    (d) => d.method === "GET" && d.dataSchema && (d.auth === "required" || d.auth === "optional"),
  );
  // Session-only endpoints' examples send the session cookie (the example's "token"), the others the API key.
  const session = (await makeSession(server.db, app.admin.id)).cookie.split("=")[1]!;
  const failures: string[] = [];
  let ran = 0;
  let sessionOnly = 0;
  for (const d of gets) {
    const values = realIds(d, ids);
    if (!values) continue;
    const token = d.sessionOnly ? session : app.token;
    const curl = samplesOf(d, { origin: server.url, token, values }).find((s) => s.language === "curl");
    const { stdout } = await run("sh", ["-c", `${curl!.code} --silent`]);
    const body = JSON.parse(stdout) as { meta?: { status?: number } };
    if (body.meta?.status !== 200) failures.push(`${d.method} ${d.path}: ${stdout.slice(0, 200)}`);
    ran++;
    if (!d.sessionOnly) continue;
    sessionOnly++;
    // The mark is the server's own rule: the same request with the app's API key is refused.
    const url = samplesOf(d, { origin: server.url, values }).find((s) => s.language === "curl")!;
    const withKey = url.code.replace(/-H 'Cookie: [^']*'/, `-H 'Authorization: Token ${app.token}'`);
    const refused = JSON.parse((await run("sh", ["-c", `${withKey} --silent`])).stdout) as {
      meta: { status: number; error: string };
    };
    expect(refused.meta, `${d.method} ${d.path} with an API key`).toMatchObject({
      status: 403,
      error: "PermissionDenied",
    });
  }
  expect(failures).toEqual([]);
  expect(ran).toBeGreaterThan(20);
  expect(sessionOnly).toBeGreaterThan(0);
});
