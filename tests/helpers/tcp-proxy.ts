// A TCP proxy on loopback in front of a real server (PostgreSQL), that a test can cut and restore: while cut, every
// open connection is reset and new ones are refused, as when the database goes down or the network between fails.
import net from "node:net";

export type TcpProxy = { port: number; cut: () => void; restore: () => void; close: () => Promise<void> };

export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  let open = true;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    if (!open) return void client.resetAndDestroy();
    const upstream = net.connect(port, host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      open = false;
      for (const s of sockets) s.resetAndDestroy();
    },
    restore: () => {
      open = true;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
