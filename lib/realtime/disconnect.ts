import { tryRuntime } from "../server/runtime";

/**
 * Rooms every socket joins on connect (an operator's: their session and themself; a token's: the token), so that
 * access taken away (a logout, a removal from an app, a revoked token) also ends the sockets it authorised.
 * Through the Redis adapter this reaches every instance.
 */
export const sessionRoom = (sessionId: bigint) => `session:${sessionId}`;
export const adminRoom = (adminId: bigint) => `admin:${adminId}`;
export const tokenRoom = (tokenId: bigint) => `token:${tokenId}`;

export function disconnectSession(sessionId: bigint): void {
  tryRuntime()?.io?.in(sessionRoom(sessionId)).disconnectSockets(true);
}

export function disconnectAdmin(adminId: bigint): void {
  tryRuntime()?.io?.in(adminRoom(adminId)).disconnectSockets(true);
}

export function disconnectToken(tokenId: bigint): void {
  tryRuntime()?.io?.in(tokenRoom(tokenId)).disconnectSockets(true);
}
