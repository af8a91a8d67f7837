import { routes } from "@/lib/api/endpoint";
import { postClose } from "@/lib/conversations/endpoints/state";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postClose);
