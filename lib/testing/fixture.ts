import { test as base } from "vitest";
import type { Socket } from "socket.io-client";
import type { Config } from "../config/env";
import { makeApp } from "./factories";
import { client, type Client } from "./http";
import { startTestServer } from "./server";
import { openSocket } from "./socket";

/** An app made by makeApp (its default admin, channel and a full-scope token) and a client bound to that token. */
export type TestApp = Awaited<ReturnType<typeof makeApp>> & { api: Client };

async function makeTestApp(s: Awaited<ReturnType<typeof startTestServer>>): Promise<TestApp> {
  const a = await makeApp(s.db);
  return { ...a, api: client(s, a.token) };
}

/** Sockets of a file's server; every one opened is disconnected when the file ends, before the server closes. */
export interface TestSockets {
  open: (auth: { token?: string; cookie?: string }) => Promise<Socket>;
}

/**
 * The test API with the fixtures of a server test file, all set up lazily and once per file:
 * - `server`: the real product server over a fresh database (lib/testing/server.ts), closed when the file ends;
 * - `app` and `other`: two apps of that server with unique values, for a test and for the app it must not reach;
 * - `sockets`: socket.io clients of that server.
 * File-scoped fixtures reach suite hooks too, so a file can bind them once (`it.beforeAll(({ app }) => ...)`)
 * for helpers declared outside its tests.
 */
export function serverTest(config: Partial<Config> = {}) {
  return base
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
    });
}

/** The fixtures over a server with the test defaults (see startTestServer). */
export const it = serverTest();
