import { revokeApiKeyBy } from "../../lib/auth/tokens";
import { CliError, requiredFlag } from "../args";
import type { Command } from "./command";

export const tokenRevoke: Command = {
  name: "token:revoke",
  usage: "--token T",
  summary: "Revoke an API token: requests made with it fail from now on.",
  flags: ["token"],
  prepare(args) {
    const token = requiredFlag(args, "token").trim();
    return async (db) => {
      if (!(await revokeApiKeyBy(db, { token }))) {
        throw new CliError("No active token matches: it is unknown or already revoked.");
      }
      return { json: { revoked: true }, text: "Token revoked." };
    };
  },
};
