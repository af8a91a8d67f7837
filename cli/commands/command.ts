import type { Db } from "../../lib/db/client";
import type { Args } from "../args";

export interface Output {
  /** Printed with --json: one line, ids as numbers. */
  json: unknown;
  text: string;
}

export type Work = (db: Db) => Promise<Output>;

export interface Command {
  name: string;
  /** The flags part of the usage line. */
  usage: string;
  summary: string;
  /** Value flags the command accepts (--json and --help are always accepted). */
  flags: readonly string[];
  /**
   * Checks the command line (throwing UsageError) and reads what it needs from the terminal (a password) before
   * the database is opened; returns the work to do.
   */
  prepare(args: Args): Work | Promise<Work>;
}

/** Ids are BigInt in the database; JSON consumers want numbers, and ids stay far below 2^53. */
export const num = (id: bigint): number => Number(id);
