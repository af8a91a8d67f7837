import { isScope, SCOPES, type Scope } from "../../lib/auth/scopes";
import { issueApiKey } from "../../lib/auth/tokens";
import { cleanName } from "../../lib/admins/input";
import { requireApp } from "../../lib/admins/require-app";
import { idFlag, optionalFlag, UsageError, type Args } from "../args";
import { num, type Command } from "./command";

function parseScopes(args: Args): Scope[] {
  const raw = optionalFlag(args, "scopes");
  if (raw === undefined) return [...SCOPES];
  const names = [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) throw new UsageError("--scopes lists no scope", args.command);
  const unknown = names.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown scope ${unknown.map((s) => `"${s}"`).join(", ")} (known: ${SCOPES.join(", ")})`,
      args.command,
    );
  }
  return names as Scope[];
}

export const tokenCreate: Command = {
  name: "token:create",
  usage: `--app ID [--scopes a,b] [--name X]`,
  summary: `Create an API token (every scope unless --scopes: ${SCOPES.join(", ")}); it is shown only once.`,
  flags: ["app", "scopes", "name"],
  prepare(args) {
    const appId = idFlag(args, "app");
    const scopes = parseScopes(args);
    const rawName = optionalFlag(args, "name");
    return async (db) => {
      const name = rawName === undefined ? "" : cleanName(rawName, "name");
      await requireApp(db, appId);
      const { token, record } = await issueApiKey(db, { appId, scopes, name });
      return {
        json: { token, id: num(record.id), app: num(appId), name: record.name, scopes: record.scopes },
        text: [
          `Created token ${record.id} for app ${appId} with scopes ${record.scopes.join(", ")}.`,
          "Token (shown only now, keep it safe):",
          token,
        ].join("\n"),
      };
    };
  },
};
