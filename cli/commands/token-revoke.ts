import { revocationsApplied } from "../../lib/auth/revocations";
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
      // "From now on" on every running server: each applies the revocation from the event log.
      await revocationsApplied(db);
      return { json: { revoked: true }, text: "Token revoked." };
    };
  },
};
