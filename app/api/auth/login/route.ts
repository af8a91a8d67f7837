import { routes } from "@/lib/api/endpoint";
import { login } from "@/lib/auth/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(login);
