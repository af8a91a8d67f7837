import { routes } from "@/lib/api/endpoint";
import { postSendMessage } from "@/lib/conversations/endpoints/start";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postSendMessage);
