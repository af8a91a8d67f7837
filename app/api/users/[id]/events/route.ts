import { routes } from "@/lib/api/endpoint";
import { getUserEvents, postUserEvent } from "@/lib/events/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUserEvents, postUserEvent);
