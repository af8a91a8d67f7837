import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect } from "vitest";
import { it } from "../testing/fixture";
import { DEFAULT_VERSION, endpointsOf, type DocEndpoint } from "./reference";
import { samplesOf } from "./samples";

const run = promisify(execFile);

/** Operators' own endpoints: their handlers refuse any token (nothing in the spec says so, hence this list). */
const SESSION_ONLY = new Set([
  "/auth/me",
  "/apps/{id}/api_keys",
  "/me/email_notifications",
  "/notifications",
]);

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
  const failures: string[] = [];
  let ran = 0;
  for (const d of gets) {
    const values = realIds(d, ids);
    if (!values || SESSION_ONLY.has(d.path)) continue;
    const curl = samplesOf(d, { origin: server.url, token: app.token, values }).find(
      (s) => s.language === "curl",
    );
    const { stdout } = await run("sh", ["-c", `${curl!.code} --silent`]);
    const body = JSON.parse(stdout) as { meta?: { status?: number } };
    if (body.meta?.status !== 200) failures.push(`${d.method} ${d.path}: ${stdout.slice(0, 200)}`);
    ran++;
  }
  expect(failures).toEqual([]);
  expect(ran).toBeGreaterThan(20);
});
