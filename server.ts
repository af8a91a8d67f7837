import { startServer } from "./lib/compose/start";
import { seedOnFirstRun } from "./lib/demo/first-run";

// The product's one process: Next (pages and /api) and socket.io on one port.
const dev = process.argv.includes("--dev");

const running = await startServer({ dev, beforeListen: seedOnFirstRun }).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
console.log(`Ready on ${running.url}`);

let stopping = false;
for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${sig}: shutting down`);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
