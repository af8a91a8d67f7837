import { routes } from "@/lib/api/endpoint";
import { deleteUserTag, postUserTag } from "@/lib/users/endpoints-notes";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postUserTag, deleteUserTag);
