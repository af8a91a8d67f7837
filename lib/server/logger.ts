import { format } from "node:util";
import { pino, type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { errorLine } from "../db/client";

export type { Logger };

/**
 * Names a log line never carries the value of, wherever they appear in its fields. Lines are built from chosen
 * fields (the request's method, route, status, IDs), never from a request's body or headers; this is the net
 * under that rule.
 */
const REDACT = ["token", "password", "secret", "authorization", "cookie", "body", "email_secret"].flatMap(
  (k) => [k, `*.${k}`],
);

let isoMs = 0;
let isoText = "";

/** pino's isoTime, made once per millisecond: several request lines share one. */
function isoTime(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = `,"time":"${new Date(ms).toISOString()}"`;
  }
  return isoText;
}

/**
 * The server's loggers (pino): one JSON object per line for a collector, or readable text (LOG_FORMAT=text, and
 * under `npm run dev`). `sink` takes the lines instead of stdout (tests). `requests` writes the per-request line
 * (lib/server/request-log.ts) to the same place without the redaction pass, which cost more than the rest of the
 * line: its fields are chosen and none is a secret's name.
 */
export function createLogger(opts: {
  format: "json" | "text";
  instance?: string;
  sink?: (line: string) => void;
}): { logger: Logger; requests: Logger } {
  const options = {
    base: { pid: process.pid, ...(opts.instance ? { instance: opts.instance } : {}) },
    timestamp: isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const sink = opts.sink;
  const dest: DestinationStream = sink
    ? { write: (line: string) => sink(line.trimEnd()) }
    : opts.format === "text"
      ? pretty({ colorize: false, singleLine: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l" })
      : pino.destination({ dest: 1, sync: false });
  return {
    logger: pino({ ...options, redact: { paths: REDACT, censor: "[redacted]" } }, dest),
    requests: pino(options, dest),
  };
}

/**
 * console.* through the logger, so that what Next and libraries print is a line of the same log (an Error keeps
 * its stack in `err`).
 */
export function routeConsole(logger: Logger): void {
  const to =
    (level: "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const err = args.find((a): a is Error => a instanceof Error);
      const msg = format(...args.filter((a) => a !== err));
      if (err) logger[level]({ err: errorFields(err) }, msg);
      else logger[level](msg);
    };
  console.log = to("info");
  console.info = to("info");
  console.warn = to("warn");
  console.error = to("error");
}

/**
 * An error as a log line may carry it: Prisma's messages quote the call's arguments (a message's body, an
 * email address), so of theirs only the last line, the cause; others keep their stack.
 */
export function errorFields(err: Error): Record<string, unknown> {
  const code = (err as { code?: unknown }).code;
  if (err.name.startsWith("PrismaClient"))
    return { type: err.name, message: errorLine(err), ...(code === undefined ? {} : { code }) };
  return { type: err.name, message: err.message, stack: err.stack, ...(code === undefined ? {} : { code }) };
}
