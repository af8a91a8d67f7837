import { routes } from "@/lib/api/endpoint";
import { getUsersImport } from "@/lib/imports/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUsersImport);
