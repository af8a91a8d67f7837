import { routes } from "@/lib/api/endpoint";
import { getUserNotes, postUserNote } from "@/lib/users/endpoints-notes";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUserNotes, postUserNote);
