import { tryRuntime } from "../server/runtime";
import { revokeAccess } from "../auth/revoked";

/**
 * Rooms every socket joins on connect (an operator's: their session and themself; a token's: the token), so that
 * access taken away (a logout, a removal from an app, a revoked token) also ends the sockets it authorised.
 * Through the Redis adapter this reaches every instance.
 */
export const sessionRoom = (sessionId: bigint) => `session:${sessionId}`;
export const adminRoom = (adminId: bigint) => `admin:${adminId}`;
export const apiKeyRoom = (apiKeyId: bigint) => `token:${apiKeyId}`;
export const visitorRoom = (userId: bigint) => `visitor:${userId}`;

function disconnectRoom(room: string): void {
  const io = tryRuntime()?.io;
  // This instance's sockets at once: the Redis adapter ends even local ones only when its own broadcast comes back
  // from Redis, and never while Redis is down.
  io?.local.in(room).disconnectSockets(true);
  io?.in(room).disconnectSockets(true);
}

export function disconnectSession(sessionId: bigint): void {
  disconnectRoom(sessionRoom(sessionId));
}

/** Also stops the operator's API v3 access tokens issued until now, on every instance. */
export function disconnectAdmin(adminId: bigint): void {
  revokeAccess(`admin:${adminId}`);
  disconnectRoom(adminRoom(adminId));
}

/** Also stops the API key's v3 access tokens, on every instance. */
export function disconnectApiKey(apiKeyId: bigint): void {
  revokeAccess(`key:${apiKeyId}`);
  disconnectRoom(apiKeyRoom(apiKeyId));
}

/** A messenger visitor's logout, or its merge into the user it logged in as: its tokens and sockets end. */
export function disconnectVisitor(userId: bigint): void {
  revokeAccess(`visitor:${userId}`);
  disconnectRoom(visitorRoom(userId));
}
