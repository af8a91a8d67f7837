import { routes } from "@/lib/api/endpoint";
import { postStartConversation } from "@/lib/conversations/endpoints/start";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postStartConversation);
