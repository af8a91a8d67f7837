import fs from "node:fs";
import path from "node:path";
import { benchEdge } from "./edge";
import { benchRealtime } from "./realtime";
import { benchConversations } from "./conversations";

// `npm run bench`: prints each benchmark's table and writes bench/results.json.
process.env.CHECKPOINT_DISABLE = "1";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  database: process.env.DATABASE_URL ? "postgres" : "pglite",
};
console.log("== API edge: endpoint() overhead");
results.edge = await benchEdge();
console.log("== Conversations: 100,000 on PostgreSQL");
results.conversations = await benchConversations();
console.log("== Real-time: reply → message latency, 500 sockets");
results.realtime = await benchRealtime();
fs.writeFileSync(path.join(import.meta.dirname, "results.json"), JSON.stringify(results, null, 2));
console.log("wrote bench/results.json");
process.exit(0);
