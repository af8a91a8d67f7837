import { seedDemo } from "../../lib/demo/seed";
import { num, type Command } from "./command";

export const demoSeed: Command = {
  name: "demo:seed",
  usage: "",
  summary: "Create the demo workspace, when the database is still empty.",
  flags: [],
  prepare() {
    return async (db) => {
      const seeded = await seedDemo(db);
      if (!seeded) {
        return { json: { seeded: false }, text: "The database already holds data: nothing seeded." };
      }
      return {
        json: {
          seeded: true,
          app: { id: num(seeded.appId) },
          admin: { email: seeded.adminEmail, password: seeded.adminPassword },
          token: seeded.token,
        },
        text: [
          `Demo workspace created (app ${seeded.appId}).`,
          `Log in as ${seeded.adminEmail} with the password ${seeded.adminPassword}`,
          "API token (shown only now, keep it safe):",
          seeded.token,
        ].join("\n"),
      };
    };
  },
};
