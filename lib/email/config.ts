import { loadConfig, type EmailConfig } from "../config/env";
import { tryRuntime } from "../server/runtime";

/** The server's email settings; a process without a server (the CLI) reads the environment. */
export const emailConfig = (): EmailConfig => (tryRuntime()?.config ?? loadConfig()).email;
