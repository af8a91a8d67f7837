import { routes } from "@/lib/api/endpoint";
import { getWebhookDeliveries } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getWebhookDeliveries);
