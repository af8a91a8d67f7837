import { routes } from "@/lib/api/endpoint";
import { deleteApiKey } from "@/lib/apps/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(deleteApiKey);
