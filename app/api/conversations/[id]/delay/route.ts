import { routes } from "@/lib/api/endpoint";
import { postDelay } from "@/lib/conversations/endpoints/state";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postDelay);
