import { routes } from "@/lib/api/endpoint";
import { deleteWebhookOne, getWebhookOne, patchWebhook, postWebhookUpdate } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(
  getWebhookOne,
  patchWebhook,
  postWebhookUpdate,
  deleteWebhookOne,
);
