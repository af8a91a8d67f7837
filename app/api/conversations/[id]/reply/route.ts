import { routes } from "@/lib/api/endpoint";
import { postReply } from "@/lib/conversations/endpoints/reply";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postReply);
