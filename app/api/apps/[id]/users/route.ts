import { routes } from "@/lib/api/endpoint";
import { getAppUsers } from "@/lib/leads/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getAppUsers);
