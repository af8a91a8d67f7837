import { test as base } from "vitest";
import type { Socket } from "socket.io-client";
import type { Config } from "../config/env";
import type { Scope } from "../auth/scopes";
import { makeApp, makeSession, makeToken, makeUser } from "./factories";
import { client, type Client } from "./http";
import { startTestServer, type TestServer } from "./server";
import { openSocket } from "./socket";

/** An app made by makeApp (its default admin, channel and a full-scope token) and a client bound to that token. */
export type TestApp = Awaited<ReturnType<typeof makeApp>> & { api: Client };

/** A new app of the server, for a test whose app-wide state (its bots, messages, settings) must be its own. */
export async function makeTestApp(s: TestServer): Promise<TestApp> {
  const a = await makeApp(s.db);
  return { ...a, api: client(s, a.token) };
}

/** Sockets of a file's server; every one opened is disconnected when the file ends, before the server closes. */
export interface TestSockets {
  open: (auth: { token?: string; cookie?: string }) => Promise<Socket>;
}

/** An operator logged in as a browser is: the session's cookie and CSRF token, and a client that sends them. */
export type TestOperator = { cookie: string; csrf: string } & Client;

/**
 * The test API of a server test file, its fixtures set up once per file (lazily, but the server before the first
 * test):
 * - `server`: the real product server over a fresh database (lib/testing/server.ts), closed when the file ends;
 * - `app` and `other`: two apps of that server with unique values, for a test and for the app it must not reach;
 * - `sockets`: socket.io clients of that server;
 * - `operator(adminId)`: that admin logged in (a new session each call);
 * - `scoped(scopes, of = app)`: a client of a new token of that app with only those scopes;
 * - `conversation`: a visitor's conversation of `app`, started through the API (a new user's first message).
 * A test takes what it needs from its context (`async ({ server, app }) => ...`); a helper declared outside the
 * tests takes them as parameters.
 */
export function serverTest(config: Partial<Config> = {}) {
  const t = base
    .extend("server", { scope: "file" }, async ({}, { onCleanup }) => {
      const s = await startTestServer(config);
      onCleanup(() => s.close());
      return s;
    })
    .extend("app", { scope: "file" }, async ({ server }) => makeTestApp(server))
    .extend("other", { scope: "file" }, async ({ server }) => makeTestApp(server))
    .extend("sockets", { scope: "file" }, async ({ server }, { onCleanup }): Promise<TestSockets> => {
      const opened: Socket[] = [];
      onCleanup(() => {
        for (const x of opened) x.disconnect();
      });
      return {
        open: async (auth) => {
          const socket = await openSocket(server.url, auth);
          opened.push(socket);
          return socket;
        },
      };
    })
    .extend(
      "operator",
      { scope: "file" },
      async ({ server }) =>
        async (adminId: bigint): Promise<TestOperator> => {
          const session = await makeSession(server.db, adminId);
          return { ...session, ...client(server, session) };
        },
    )
    .extend(
      "scoped",
      { scope: "file" },
      async ({ server, app }) =>
        async (scopes: Scope[], of: { app: { id: bigint } } = app): Promise<Client> =>
          client(server, await makeToken(server.db, of.app.id, scopes)),
    )
    .extend("conversation", { scope: "file" }, async ({ server, app }) => {
      const user = await makeUser(server.db, app.app.id);
      const r = await app.api.postForm(`/api/users/${user.id}/startconversation`, { body: "hello" });
      if (r.status !== 200) throw new Error(`the conversation fixture was refused: ${r.text.slice(0, 200)}`);
      return { id: BigInt((r.body.data as { id: number }).id), userId: user.id };
    });
  // Started in a hook, under its longer timeout: on a busy machine a server's start can outlast a test's.
  t.beforeAll(({ server }) => void server);
  return t;
}
