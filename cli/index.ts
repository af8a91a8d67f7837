import { ConfigError, loadConfig } from "../lib/config/env";
import { parseArgs, checkFlags, UsageError } from "./args";
import { COMMANDS, helpText, usageLine } from "./commands";
import { withDatabase } from "./db";

/** Operator tasks outside the API: creating apps, admins and tokens, seeding the demo. */
async function main(argv: readonly string[]): Promise<number> {
  let json = argv.includes("--json");
  try {
    const args = parseArgs(argv);
    json = args.json;
    if (args.command === undefined || args.command === "help") {
      if (args.command === undefined && !args.help) throw new UsageError("no command given");
      console.log(helpText());
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === args.command);
    if (!command) throw new UsageError(`unknown command "${args.command}"`);
    if (args.help) {
      console.log(`${usageLine(command)}\n  ${command.summary}`);
      return 0;
    }
    checkFlags(args, command.flags);
    // Before prepare, which may prompt for a password: a bad environment is refused first.
    const config = loadConfig();
    const work = await command.prepare(args);
    const out = await withDatabase(config, work);
    console.log(json ? JSON.stringify(out.json) : out.text);
    return 0;
  } catch (err) {
    // A bad command line may have swallowed --json as a flag's value; the words themselves say what was meant.
    if (err instanceof UsageError) json = argv.includes("--json");
    const message =
      err instanceof ConfigError
        ? `Invalid environment: ${err.problems.join("; ")}`
        : oneLine(err instanceof Error ? err.message : String(err));
    if (json) console.error(JSON.stringify({ error: message }));
    else console.error(`error: ${message}`);
    if (!(err instanceof UsageError)) return 1;
    if (!json) {
      const command = COMMANDS.find((c) => c.name === err.command);
      console.error(command ? `usage: ${usageLine(command)}` : 'Run "npm run cli -- help" for the commands.');
    }
    return 2;
  }
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

process.exitCode = await main(process.argv.slice(2));
