import { routes } from "@/lib/api/endpoint";
import { deleteUserNote } from "@/lib/users/endpoints-notes";

export const { GET, POST, PUT, PATCH, DELETE } = routes(deleteUserNote);
