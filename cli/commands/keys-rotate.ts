import { rotateSigningKey } from "../../lib/auth/signing-keys";
import type { Command } from "./command";

export const keysRotate: Command = {
  name: "keys:rotate",
  usage: "",
  summary:
    "Make a new API v3 signing key current now (keys also rotate by themselves every 30 days); tokens signed " +
    "with the old one stay valid until they expire.",
  flags: [],
  prepare() {
    return async (db) => {
      const kid = await rotateSigningKey(db);
      return { json: { kid }, text: `New signing key ${kid} is current.` };
    };
  },
};
