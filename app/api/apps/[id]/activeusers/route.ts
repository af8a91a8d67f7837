import { routes } from "@/lib/api/endpoint";
import { getActiveUsers } from "@/lib/users/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getActiveUsers);
