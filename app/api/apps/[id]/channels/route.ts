import { routes } from "@/lib/api/endpoint";
import { getChannels } from "@/lib/channels/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getChannels);
