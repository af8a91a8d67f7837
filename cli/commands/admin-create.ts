import { createAdmin } from "../../lib/admins/create-admin";
import { idFlag, optionalFlag, requiredFlag } from "../args";
import { num, type Command } from "./command";

export const adminCreate: Command = {
  name: "admin:create",
  usage: "--app ID --email E --password P [--name X]",
  summary: "Add an operator to an app (an admin who already exists keeps their password).",
  flags: ["app", "email", "password", "name"],
  prepare(args) {
    const input = {
      appId: idFlag(args, "app"),
      email: requiredFlag(args, "email"),
      password: requiredFlag(args, "password"),
      name: optionalFlag(args, "name"),
    };
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
