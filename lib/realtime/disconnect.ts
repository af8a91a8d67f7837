import { tryRuntime } from "../server/runtime";

/**
 * Rooms every operator's socket joins on connect, so that access taken away (a logout, a removal from an app)
 * also ends the sockets it authorised. Through the Redis adapter this reaches every instance.
 */
export const sessionRoom = (sessionId: bigint) => `session:${sessionId}`;
export const adminRoom = (adminId: bigint) => `admin:${adminId}`;

export function disconnectSession(sessionId: bigint): void {
  tryRuntime()?.io?.in(sessionRoom(sessionId)).disconnectSockets(true);
}

export function disconnectAdmin(adminId: bigint): void {
  tryRuntime()?.io?.in(adminRoom(adminId)).disconnectSockets(true);
}
