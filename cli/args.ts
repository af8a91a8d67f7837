/** A mistake in the command line itself (exit code 2), as opposed to a failure while doing the work (1). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** A failure the user can act on, reported as its message alone (exit code 1). */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

export interface Args {
  command: string | undefined;
  flags: Map<string, string>;
  json: boolean;
  help: boolean;
}

const BOOLEAN_FLAGS = new Set(["json", "help"]);

/**
 * `<command> [--flag value | --flag=value]… [--json] [--help]`. A value flag always takes the next word, even one
 * starting with "--", so that any password can be passed.
 */
export function parseArgs(argv: readonly string[]): Args {
  const args: Args = { command: undefined, flags: new Map(), json: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "-h") {
      args.help = true;
      continue;
    }
    if (!word.startsWith("--")) {
      if (args.command !== undefined) throw new UsageError(`unexpected argument "${word}"`, args.command);
      args.command = word;
      continue;
    }
    const eq = word.indexOf("=");
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
    if (!name) throw new UsageError(`unexpected argument "${word}"`, args.command);
    if (BOOLEAN_FLAGS.has(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`, args.command);
      args[name as "json" | "help"] = true;
      continue;
    }
    let value: string;
    if (eq >= 0) value = word.slice(eq + 1);
    else {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`--${name} needs a value`, args.command);
      value = next;
    }
    if (args.flags.has(name)) throw new UsageError(`--${name} is given twice`, args.command);
    args.flags.set(name, value);
  }
  return args;
}

export function checkFlags(args: Args, allowed: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`, args.command);
  }
}

export function requiredFlag(args: Args, name: string): string {
  const value = args.flags.get(name);
  if (value === undefined) throw new UsageError(`--${name} is required`, args.command);
  return value;
}

export function optionalFlag(args: Args, name: string): string | undefined {
  return args.flags.get(name);
}

export function idFlag(args: Args, name: string): bigint {
  const value = requiredFlag(args, name).trim();
  if (!/^[1-9][0-9]{0,18}$/.test(value))
    throw new UsageError(`--${name} must be a positive integer id`, args.command);
  return BigInt(value);
}
