import { routes } from "@/lib/api/endpoint";
import { postUsersImport } from "@/lib/imports/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postUsersImport);
