import { routes } from "@/lib/api/endpoint";
import { getAppConversations } from "@/lib/conversations/endpoints/list";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getAppConversations);
