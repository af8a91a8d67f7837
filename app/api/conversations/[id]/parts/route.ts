import { routes } from "@/lib/api/endpoint";
import { getConversationParts } from "@/lib/conversations/endpoints/get";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getConversationParts);
