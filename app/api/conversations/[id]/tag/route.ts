import { routes } from "@/lib/api/endpoint";
import { postTag, deleteTag } from "@/lib/conversations/endpoints/state";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postTag, deleteTag);
