import { routes } from "@/lib/api/endpoint";
import { postRead } from "@/lib/conversations/endpoints/state";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postRead);
