import { startServer } from "./lib/compose/start";
import { seedOnFirstRun } from "./lib/demo/first-run";

// The product's one process: Next (pages and /api) and socket.io on one port.
const dev = process.argv.includes("--dev");

const running = await startServer({ dev, beforeListen: seedOnFirstRun, routeConsole: true }).catch(
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
console.log(`Ready on ${running.url}`);

/** What a supervisor is promised: gone within 30 s of SIGTERM (docs/deploy.md). */
const HARD_EXIT_MS = 28_000;
/** Longer than the balancer's idle timeout for its connections to us (10 s in deploy/nginx/relay.conf). */
const IDLE_GRACE_MS = 12_000;
let stopping = false;
for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${sig}: shutting down`);
    // The drain is bounded (lib/compose/start.ts); should anything hang past it, the process still goes.
    setTimeout(() => {
      console.error(`${sig}: still closing after ${HARD_EXIT_MS / 1000} s, exiting`);
      process.exit(1);
    }, HARD_EXIT_MS).unref();
    // Behind a balancer (SIGTERM), kept-alive connections get time for their next request; Ctrl-C does not wait.
    running.close(sig === "SIGTERM" ? { idleGraceMs: IDLE_GRACE_MS } : {}).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
