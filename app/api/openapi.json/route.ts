import { routes } from "@/lib/api/endpoint";
import { getOpenApi } from "@/lib/api/docs-endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getOpenApi);
