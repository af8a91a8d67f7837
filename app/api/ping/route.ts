import { routes } from "@/lib/api/endpoint";
import { getPing } from "@/lib/api/ping-endpoint";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getPing);
