import { routes } from "@/lib/api/endpoint";
import { getConversationById } from "@/lib/conversations/endpoints/get";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getConversationById);
