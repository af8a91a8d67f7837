import { routes } from "@/lib/api/endpoint";
import { me } from "@/lib/auth/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(me);
