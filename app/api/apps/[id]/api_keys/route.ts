import { routes } from "@/lib/api/endpoint";
import { getApiKeys, postApiKey } from "@/lib/apps/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getApiKeys, postApiKey);
