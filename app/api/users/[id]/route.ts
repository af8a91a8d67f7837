import { routes } from "@/lib/api/endpoint";
import { getUserData } from "@/lib/users/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUserData);
