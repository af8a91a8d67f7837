import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { addAdmin } from "./add-admin";
import { NAME_MAX, PASSWORD_MIN } from "./input";
import { listAdmins, serializeAppAdmin } from "./list-admins";
import { removeAdmin } from "./remove-admin";
import { adminRemovedSchema, adminMemberSchema } from "./schemas";

const params = z.object({ id: p.appId() });

export const getAdmins = endpoint({
  method: "GET",
  path: "/apps/{id}/admins",
  summary: "Get the app's operators",
  tags: ["Apps"],
  scopes: ["app-admin"],
  v2: {
    response: z.array(adminMemberSchema),
    params,
    handler: async (ctx, input) => ({
      data: (await listAdmins(ctx, { appId: input.id })).map(serializeAppAdmin),
    }),
  },
});

export const postAdmin = endpoint({
  method: "POST",
  path: "/apps/{id}/admins",
  summary: "Add an operator: a new admin, or an existing one by email (owners only)",
  tags: ["Apps"],
  scopes: [],
  sessionOnly: true,
  v2: {
    response: adminMemberSchema,
    params: z.object({
      id: p.appId(),
      email: p.str({ min: 1, max: 254, trim: true }),
      name: p.str({ min: 1, max: NAME_MAX, trim: true }).optional(),
      password: p.str({ min: PASSWORD_MIN, max: 1024 }).optional(),
      role: p.oneOf(["operator", "owner"]).optional(),
    }),
    handler: async (ctx, input) => ({
      data: serializeAppAdmin(
        await addAdmin(ctx, {
          appId: input.id,
          email: input.email,
          name: input.name,
          password: input.password,
          role: input.role,
        }),
      ),
    }),
  },
});

export const deleteAdmin = endpoint({
  method: "DELETE",
  path: "/apps/{id}/admins/{admin_id}",
  summary: "Remove an operator from the app; their open conversations become unassigned (owners only)",
  tags: ["Apps"],
  scopes: [],
  sessionOnly: true,
  v2: {
    response: adminRemovedSchema,
    params: z.object({ id: p.appId(), admin_id: p.id() }),
    handler: async (ctx, input) => ({
      data: await removeAdmin(ctx, { appId: input.id, adminId: input.admin_id }),
    }),
  },
});
