import { CliError, UsageError, type Args } from "./args";

/** Where scripts put an admin's password instead of the command line (which `ps` and shell history show). */
export const PASSWORD_ENV = "RELAY_ADMIN_PASSWORD";

export interface PasswordSources {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WritableStream;
}

const real = (): PasswordSources => ({ env: process.env, stdin: process.stdin, stderr: process.stderr });

/**
 * An admin's password: `--<flag>` when given (kept for compatibility, discouraged), else $RELAY_ADMIN_PASSWORD,
 * else standard input: a hidden prompt (asked twice) on a terminal, the first line of a pipe or file.
 */
export async function readPassword(
  args: Args,
  flag: string,
  from: PasswordSources = real(),
): Promise<string> {
  const given = args.flags.get(flag);
  if (given !== undefined) return given;
  const env = from.env[PASSWORD_ENV];
  if (env !== undefined && env !== "") return env;
  if (from.stdin.isTTY) {
    const first = await promptHidden(from, "Password: ");
    const again = await promptHidden(from, "Password (again): ");
    if (first !== again) throw new CliError("the two passwords differ");
    if (first === "") throw new CliError("no password typed");
    return first;
  }
  const piped = firstLine(await readAll(from.stdin));
  if (piped === "") {
    throw new UsageError(
      `no password: pipe it on standard input, set ${PASSWORD_ENV}, or (discouraged) pass --${flag}`,
      args.command,
    );
  }
  return piped;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** `echo pw | …` and a file ending in a newline both mean "pw": only the line break is dropped. */
function firstLine(text: string): string {
  const end = text.search(/\r?\n/);
  return end < 0 ? text : text.slice(0, end);
}

function promptHidden(from: PasswordSources, question: string): Promise<string> {
  const { stdin, stderr } = from;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (err?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return finish();
        if (ch === "\u0003") return finish(new CliError("cancelled"));
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}
