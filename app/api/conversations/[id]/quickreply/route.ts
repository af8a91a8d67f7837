import { routes } from "@/lib/api/endpoint";
import { postQuickReply } from "@/lib/conversations/endpoints/reply";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postQuickReply);
