import { routes } from "@/lib/api/endpoint";
import { deleteAdmin } from "@/lib/admins/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(deleteAdmin);
