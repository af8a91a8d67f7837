import { routes } from "@/lib/api/endpoint";
import { postWebhookTest } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(postWebhookTest);
