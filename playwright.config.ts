import { defineConfig, devices } from "@playwright/test";

// Browsers are not downloaded here: Debian's Chromium (apt-get install chromium).
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// Runs against another build directory keep their own results, so they can go on side by side.
const SUFFIX = process.env.NEXT_DIST_DIR ? `-${process.env.NEXT_DIST_DIR.replace(/[^\w-]/g, "")}` : "";

export default defineConfig({
  testDir: "e2e",
  outputDir: `test-results${SUFFIX}`,
  // global-setup starts one production server per worker, each on a free port over data of its own; the fixtures
  // in e2e/support/fixtures.ts point each worker's baseURL at its server. A spec file runs whole on one worker
  // (its tests build on each other), so two workers never share a server.
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Two workers share two cores with their servers: a login (scrypt) or a first page can wait its turn.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI
    ? [["list"], ["html", { open: "never", outputFolder: `playwright-report${SUFFIX}` }]]
    : "list",
  use: {
    // A failed test's trace keeps each step's DOM snapshot, not a screencast: recording frames for every test
    // cost 2.9× the CPU of the Inbox specs (485 against 168 CPU-seconds, 4.2 against 1.6 minutes), and on two
    // cores that starved the tests themselves (clicks of 7–10 s, two CI runs out of time).
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
    screenshot: "only-on-failure",
    viewport: { width: 1280, height: 800 },
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
});
