import { routes } from "@/lib/api/endpoint";
import { postSetTyping } from "@/lib/conversations/endpoints/reply";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postSetTyping);
