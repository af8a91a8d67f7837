import { routes } from "@/lib/api/endpoint";
import { postAssign } from "@/lib/conversations/endpoints/state";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postAssign);
