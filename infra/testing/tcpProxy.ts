// A TCP proxy a test controls, to stand for a network that fails without a word: `blackHole()`
// stops forwarding in both directions and answers nothing (as a partition or a dropped route
// does: no reset, no FIN), while still noticing when the client closes its side, so the server
// side is closed then (what the server's own keepalive would do across a real partition).
// Connections accepted while black-holed are held and never answered (a connect to a black hole).
// `heal()` lets new connections through again; the ones black-holed stay so (what they sent was
// dropped, so their streams could not be resumed), until their client closes them.
import net from "node:net";

export interface TcpProxy {
  port: number;
  blackHole(): void;
  /** New connections are forwarded again (those black-holed stay so). */
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let holing = false;
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; server: net.Socket; end(): void }>();
  const track = (socket: net.Socket): net.Socket => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    return socket;
  };
  const server = net.createServer((client) => {
    track(client);
    if (holing) {
      client.on("data", () => undefined).resume(); // read and drop: nothing ever comes back
      return;
    }
    const upstream = track(net.connect(target.port, target.host));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    const pair = { client, server: upstream, end };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", end);
    upstream.on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    blackHole() {
      holing = true;
      for (const pair of pairs) {
        const { client, server: upstream } = pair;
        client.unpipe();
        upstream.unpipe();
        client.on("data", () => undefined).resume(); // what the client sends is dropped
        upstream.pause(); // what the server sends is never delivered
        upstream.off("close", pair.end); // nor the server's end of it (a session it terminates)
        pairs.delete(pair); // black-holed for good: heal() does not resume it
        // Still closed with its client (client.on("close", end)): across a partition the
        // server's keepalive would find it, later.
      }
    },
    heal() {
      holing = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server that accepts connections and never answers (nor closes them). */
export async function startBlackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: 1 });
  proxy.blackHole();
  return proxy;
}
