import { routes } from "@/lib/api/endpoint";
import { postUserProps } from "@/lib/props/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postUserProps);
