import { routes } from "@/lib/api/endpoint";
import { getWebhooks, postWebhook } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getWebhooks, postWebhook);
