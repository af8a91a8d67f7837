import { routes } from "@/lib/api/endpoint";
import { getUserConversations } from "@/lib/users/endpoints-conversations";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUserConversations);
