import { routes } from "@/lib/api/endpoint";
import { getConversationCounts } from "@/lib/conversations/endpoints/list";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getConversationCounts);
