import { execFile, execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, expectTypeOf } from "vitest";
import { it } from "../../lib/testing/fixture";
import { createRelayClient } from "./index";

describe("the typed TypeScript client (clients/typescript)", () => {
  it("calls the server with typed requests and reads typed answers", async ({ server: s, app: a }) => {
    const relay = createRelayClient({ baseUrl: s.url, token: a.token });
    const userId = `client-${Date.now()}`;
    const tracked = await relay.POST("/users/{id}/events", {
      params: { path: { id: userId } },
      body: { by_user_id: true, app: Number(a.app.id), event: "Typed client", params: { plan: "pro" } },
    });
    expect(tracked.response.status).toBe(200);
    expectTypeOf(tracked.data!.data.type.name).toEqualTypeOf<string>();
    expect(tracked.data?.data.type.name).toBe("Typed client");

    const user = await relay.GET("/users/{id}", {
      params: { path: { id: userId }, query: { by_user_id: true } },
    });
    expect(user.data?.data.user_id).toBe(userId);
    const list = await relay.GET("/apps/{id}/conversations", { params: { path: { id: String(a.app.id) } } });
    expect(list.response.status).toBe(200);
    expect(Array.isArray(list.data?.data)).toBe(true);

    // An error answer is not `data`: the envelope's error is in `error`.
    const missing = await relay.GET("/users/{id}", { params: { path: { id: "999999999999" } } });
    expect(missing.response.status).toBe(400);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ meta: { error: "LookupError" } });
  });

  it("packs: the package holds its built entry and its generated types", async () => {
    await built();
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: DIR,
    }).toString();
    const [pack] = JSON.parse(out) as { name: string; files: { path: string }[] }[];
    expect(pack?.name).toBe("@relay/api-client");
    expect(pack?.files.map((f) => f.path).sort()).toEqual([
      "dist/index.d.ts",
      "dist/index.js",
      "dist/schema.d.ts",
      "package.json",
    ]);
  });

  it("builds to JS a plain Node project imports, and to types a TypeScript project resolves", async ({
    server: s,
    app: a,
  }) => {
    await built();
    // A project with the package installed as npm would: its package.json and dist/, and its dependency.
    const project = await mkdtemp(path.join(os.tmpdir(), "relay-client-"));
    try {
      const installed = path.join(project, "node_modules", "@relay", "api-client");
      await mkdir(installed, { recursive: true });
      await cp(path.join(DIR, "package.json"), path.join(installed, "package.json"));
      await cp(path.join(DIR, "dist"), path.join(installed, "dist"), { recursive: true });
      const fetchDir = path.dirname(nodeRequire.resolve("openapi-fetch/package.json"));
      await symlink(fetchDir, path.join(project, "node_modules", "openapi-fetch"), "dir");
      await writeFile(path.join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
      await writeFile(
        path.join(project, "app.mjs"),
        `import { createRelayClient } from "@relay/api-client";
const relay = createRelayClient({ baseUrl: process.env.RELAY_URL, token: process.env.RELAY_TOKEN });
const ping = await relay.GET("/ping");
const list = await relay.GET("/apps/{id}/conversations", { params: { path: { id: process.env.RELAY_APP } } });
console.log(JSON.stringify({ ping: ping.data, status: list.response.status, isArray: Array.isArray(list.data?.data) }));
`,
      );
      // Async: the test server answers from this very process.
      const { stdout } = await run("node", ["app.mjs"], {
        cwd: project,
        env: { ...process.env, RELAY_URL: s.url, RELAY_TOKEN: a.token, RELAY_APP: String(a.app.id) },
      });
      const got = JSON.parse(stdout) as {
        ping: { data: { actor: string } };
        status: number;
        isArray: boolean;
      };
      expect(got.ping.data.actor).toBe("token");
      expect(got).toMatchObject({ status: 200, isArray: true });

      // The `types` export: a strict NodeNext project type-checks a call, and a wrong path fails it.
      const tsc = nodeRequire.resolve("typescript/bin/tsc");
      const check = (code: string) =>
        writeFile(path.join(project, "use.ts"), code).then(() =>
          run("node", [tsc, "--noEmit", "--strict", "--module", "nodenext", "--skipLibCheck", "use.ts"], {
            cwd: project,
          }),
        );
      await check(`import { createRelayClient } from "@relay/api-client";
const relay = createRelayClient({ baseUrl: "http://127.0.0.1", token: "t" });
export const name: Promise<string | undefined> = relay
  .GET("/users/{id}", { params: { path: { id: "1" } } })
  .then((r) => r.data?.data.user_id ?? undefined);
`);
      // Typed, not `any`: an answer's field read as the wrong type fails the check.
      await expect(
        check(`import { createRelayClient } from "@relay/api-client";
const relay = createRelayClient({ baseUrl: "http://127.0.0.1", token: "t" });
export const wrong: Promise<number> = relay
  .GET("/users/{id}", { params: { path: { id: "1" } } })
  .then((r) => r.data!.data.user_id);
`),
      ).rejects.toMatchObject({
        stdout: expect.stringMatching(/use\.ts\(\d+,\d+\): error TS2322/) as unknown,
      });
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});

const DIR = import.meta.dirname;
const run = promisify(execFile);
const nodeRequire = createRequire(import.meta.url);
let building: Promise<unknown> | undefined;
/** The package's own build script (tsc to dist/), once per run: generated files are never committed. */
const built = () => (building ??= run("npm", ["run", "build"], { cwd: DIR }));
