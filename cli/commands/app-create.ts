import { createApp } from "../../lib/apps/create-app";
import { optionalFlag, requiredFlag } from "../args";
import { readPassword } from "../password";
import { num, type Command } from "./command";

export const appCreate: Command = {
  name: "app:create",
  usage: "--name N --admin-email E [--admin-name X]  (password: stdin, a prompt or $RELAY_ADMIN_PASSWORD)",
  summary: "Create an app with its owner, a default channel and an API token with every scope.",
  flags: ["name", "admin-email", "admin-password", "admin-name"],
  async prepare(args) {
    const name = requiredFlag(args, "name");
    const adminEmail = requiredFlag(args, "admin-email");
    const adminName = optionalFlag(args, "admin-name");
    const input = { name, adminEmail, adminName, adminPassword: await readPassword(args, "admin-password") };
    return async (db) => {
      const { app, admin, token } = await createApp(db, input);
      return {
        json: {
          app: { id: num(app.id), name: app.name },
          admin: { id: num(admin.id), email: admin.email, name: admin.name },
          token,
        },
        text: [
          `Created app ${app.id} "${app.name}".`,
          `Owner: ${admin.name} <${admin.email}> (admin ${admin.id})`,
          "API token (shown only now, keep it safe):",
          token,
        ].join("\n"),
      };
    };
  },
};
