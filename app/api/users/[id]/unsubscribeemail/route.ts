import { routes } from "@/lib/api/endpoint";
import { postUnsubscribeEmail } from "@/lib/users/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postUnsubscribeEmail);
