import net from "node:net";

/** A free TCP port on 127.0.0.1 that nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  srv.unref();
  await new Promise<void>((resolve, reject) => {
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", resolve);
  });
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
