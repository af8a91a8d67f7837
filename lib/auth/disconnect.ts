import { tryRuntime } from "../server/runtime";

/**
 * Rooms every socket joins on connect (an operator's: their session and themself; a token's: the token), so that
 * access taken away (a logout, a removal from an app, a revoked token) also ends the sockets it authorised.
 * Through the Redis adapter this reaches every instance.
 */
export const sessionRoom = (sessionId: bigint) => `session:${sessionId}`;
export const adminRoom = (adminId: bigint) => `admin:${adminId}`;
export const tokenRoom = (tokenId: bigint) => `token:${tokenId}`;

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

export function disconnectAdmin(adminId: bigint): void {
  disconnectRoom(adminRoom(adminId));
}

export function disconnectToken(tokenId: bigint): void {
  disconnectRoom(tokenRoom(tokenId));
}
