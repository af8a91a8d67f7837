import { nextHandlers } from "@/lib/api/direct";
import { routes } from "@/lib/compose/catalog";

// The only route file under /api: the endpoint catalog is the router (lib/api/direct.ts).
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = nextHandlers(routes);
