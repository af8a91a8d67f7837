import { routes } from "@/lib/api/endpoint";
import { postSetPresence } from "@/lib/users/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postSetPresence);
