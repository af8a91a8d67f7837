import { io as connect, type Socket } from "socket.io-client";

/**
 * A real socket.io client of a test server, authenticated by a token or an operator's cookie, without reconnection
 * (a test sees a disconnect as it happened). Resolves once connected; rejects with the server's refusal.
 */
export async function openSocket(url: string, auth: { token?: string; cookie?: string }): Promise<Socket> {
  const socket = connect(url, {
    path: "/socket.io",
    transports: ["websocket"],
    auth: auth.token ? { token: auth.token } : {},
    extraHeaders: auth.cookie ? { cookie: auth.cookie } : {},
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (err) => {
      socket.disconnect();
      reject(err);
    });
  });
  return socket;
}

/**
 * The socket's disconnect, watched from now; `within(ms)` (called once access is taken away) resolves with its
 * reason, or rejects when the socket is still connected `ms` later.
 */
export function watchDisconnect(socket: Socket): { within(ms: number): Promise<string> } {
  const reason = new Promise<string>((resolve) => socket.once("disconnect", resolve));
  return {
    within: (ms) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
        void reason.then((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      }),
  };
}
