import { parentPort, workerData } from "node:worker_threads";
import { concurrent, type Req } from "./load";

/** Runs `concurrent` on its own thread, so that the load's CPU is not taken from the server's event loop. */
const { base, reqs, concurrency, seconds, max } = workerData as {
  base: string;
  reqs: Req[];
  concurrency: number;
  seconds: number;
  max?: number;
};
// Told first: the caller measures (CPU, profile) from here, after this thread's start-up and the requests' copy.
parentPort?.postMessage({ started: true });
const sample = await concurrent(base, (i) => reqs[i % reqs.length]!, { concurrency, seconds, max });
parentPort?.postMessage(sample);
