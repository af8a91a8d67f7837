import { routes } from "@/lib/api/endpoint";
import { postWebpush } from "@/lib/users/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postWebpush);
