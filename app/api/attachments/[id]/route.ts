import { routes } from "@/lib/api/endpoint";
import { getAttachment } from "@/lib/attachments/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getAttachment);
