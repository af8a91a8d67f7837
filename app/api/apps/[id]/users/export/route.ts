import { routes } from "@/lib/api/endpoint";
import { getUsersExport } from "@/lib/leads/endpoints-export";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUsersExport);
