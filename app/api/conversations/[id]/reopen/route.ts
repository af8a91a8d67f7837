import { routes } from "@/lib/api/endpoint";
import { postReopen } from "@/lib/conversations/endpoints/state";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postReopen);
