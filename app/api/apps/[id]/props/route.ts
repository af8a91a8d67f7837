import { routes } from "@/lib/api/endpoint";
import { getAppProps } from "@/lib/props/endpoints-catalog";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getAppProps);
