import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{lib,app,components,cli,scripts,messenger}/**/*.test.ts"],
    globalSetup: ["./lib/db/test-global-setup.ts"],
    // Each file runs in its own process: the server singletons live on globalThis.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
