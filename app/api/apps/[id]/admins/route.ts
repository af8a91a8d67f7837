import { routes } from "@/lib/api/endpoint";
import { getAdmins, postAdmin } from "@/lib/admins/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getAdmins, postAdmin);
