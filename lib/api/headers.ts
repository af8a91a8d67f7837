/**
 * Headers the server's front (lib/api/rewrite.ts) sets on a request for endpoint() to read: never taken from the
 * client, which is why the rewrite deletes any the client sent.
 */
export const VERSION_HEADER = "x-relay-api-version";
export const CLIENT_IP_HEADER = "x-relay-client-ip";
