import { adminCreate } from "./admin-create";
import { appCreate } from "./app-create";
import type { Command } from "./command";
import { demoSeed } from "./demo-seed";
import { jobs } from "./jobs";
import { keysRotate } from "./keys-rotate";
import { tokenCreate } from "./token-create";
import { tokenRevoke } from "./token-revoke";

export const COMMANDS: readonly Command[] = [
  appCreate,
  adminCreate,
  tokenCreate,
  tokenRevoke,
  keysRotate,
  jobs,
  demoSeed,
];

export const usageLine = (c: Command) => `npm run cli -- ${c.name}${c.usage ? ` ${c.usage}` : ""}`;

export function helpText(): string {
  return [
    "Usage: npm run cli -- <command> [options] [--json]",
    "",
    "Commands:",
    ...COMMANDS.flatMap((c) => [`  ${c.name}${c.usage ? ` ${c.usage}` : ""}`, `      ${c.summary}`]),
    "  help",
    "      Show this help.",
    "",
    "The database is the server's: DATABASE_URL, or the embedded one in DATA_DIR (default ./data), which a",
    'running server holds; stop it first. --json prints one JSON object (errors as {"error": …} on stderr).',
    "Passwords: typed at a hidden prompt, piped on standard input (first line), or in RELAY_ADMIN_PASSWORD.",
    "--password / --admin-password still work but are discouraged: other users see them in `ps` and history.",
    "Exit codes: 0 done, 1 failed, 2 bad command line.",
  ].join("\n");
}
