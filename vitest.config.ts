import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{lib,app,components,cli,scripts,messenger,clients,deploy}/**/*.test.ts"],
    globalSetup: ["./lib/db/test-global-setup.ts"],
    // A worker process runs file after file, its modules loaded once: a new process and module graph per file cost
    // about as much CPU as the tests of a typical server file. Each file still gets its own server and database;
    // what servers keep process-wide is emptied before each file (lib/testing/setup-file.ts).
    pool: "forks",
    isolate: false,
    restoreMocks: true,
    setupFiles: ["./lib/testing/setup-file.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
