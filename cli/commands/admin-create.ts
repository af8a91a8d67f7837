import { createAdmin } from "../../lib/admins/create-admin";
import { idFlag, optionalFlag, requiredFlag } from "../args";
import { readPassword } from "../password";
import { num, type Command } from "./command";

export const adminCreate: Command = {
  name: "admin:create",
  usage: "--app ID --email E [--name X]  (password: stdin, a prompt or $RELAY_ADMIN_PASSWORD)",
  summary: "Add an operator to an app (an admin who already exists keeps their password).",
  flags: ["app", "email", "password", "name"],
  async prepare(args) {
    const appId = idFlag(args, "app");
    const email = requiredFlag(args, "email");
    const name = optionalFlag(args, "name");
    const input = { appId, email, name, password: await readPassword(args, "password") };
    return async (db) => {
      const { admin, created } = await createAdmin(db, input);
      return {
        json: {
          admin: { id: num(admin.id), email: admin.email, name: admin.name },
          app: { id: num(input.appId) },
          created,
        },
        text: created
          ? `Created admin ${admin.id} ${admin.name} <${admin.email}>, operator of app ${input.appId}.`
          : `Added the existing admin ${admin.id} <${admin.email}> to app ${input.appId} (password unchanged).`,
      };
    };
  },
};
