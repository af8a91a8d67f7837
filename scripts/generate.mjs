// `prisma generate` never runs the schema engine, but the CLI insists on locating one; pointing it at any path
// keeps generate offline (self-hosters behind firewalls have only an npm mirror).
import { spawnSync } from "node:child_process";

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/false",
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const r = spawnSync("npx", ["prisma", "generate", "--no-hints"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
