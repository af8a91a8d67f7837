import { routes } from "@/lib/api/endpoint";
import { logout } from "@/lib/auth/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(logout);
