// What the code needs generated before it compiles: the Prisma client, then the typed API client's types.
// `prisma generate` never runs the schema engine, but the CLI insists on locating one; pointing it at any path
// keeps generate offline (self-hosters behind firewalls have only an npm mirror).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/false",
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const r = spawnSync("npx", ["prisma", "generate", "--no-hints"], { stdio: "inherit", env });
if (r.status !== 0) process.exit(r.status ?? 1);

// The typed API client's types (clients/typescript), from the OpenAPI document: with the dev dependencies only (an
// install for production has no generator, and runs no test that uses the client).
if (fs.existsSync(path.join(import.meta.dirname, "..", "node_modules", "openapi-typescript"))) {
  const c = spawnSync("npx", ["tsx", path.join(import.meta.dirname, "generate-client.ts")], {
    stdio: "inherit",
    env,
  });
  process.exit(c.status ?? 1);
}
