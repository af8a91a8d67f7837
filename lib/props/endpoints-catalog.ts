import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { listPropCatalog } from "./catalog";
import { catalogPropSchema } from "../leads/schemas";

export const getAppProps = endpoint({
  method: "GET",
  path: "/apps/{id}/props",
  summary: "Properties a leads filter or column can name: system, custom (types inferred) and event props",
  tags: ["Users"],
  scopes: ["users-list"],
  v2: {
    response: z.array(catalogPropSchema),
    params: z.object({ id: p.appId() }),
    handler: async (ctx, input) => ({ data: await listPropCatalog(ctx, { appId: input.id }) }),
  },
});
