// The server ends a new connection's session right after answering its first session setting
// (a terminated backend, a restart: the FATAL arrives in the same read as the SET's
// ReadyForQuery). Before, the connect failed with pg's code-less "Client has encountered a
// connection error and is not queryable", which was no connection loss: the API answered
// "internal error" and a subscriber's read was not retried.
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../services/testDatabase.js";
import { createPgPool, DEFAULT_PG_SETTINGS, isConnectionLoss } from "./index.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("x3_setup_ended");
});
afterAll(async () => {
  await database.drop();
});

/** An ErrorResponse as the server sends it when it ends a session (57P01). */
function fatal(): Buffer {
  const fields = Buffer.from("SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0", "utf8");
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/** Forwards; after the server's 2nd ReadyForQuery (the first SET's answer) sends a FATAL in the same write, then closes. */
async function endingAfterFirstSetting(target: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    let ready = 0;
    upstream.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let out = Buffer.alloc(0);
      while (pending.length >= 5) {
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const message = pending.subarray(0, 1 + length);
        pending = pending.subarray(1 + length);
        out = Buffer.concat([out, message]);
        if (message[0] === 0x5a && ++ready === 2) {
          client.write(Buffer.concat([out, fatal()]));
          upstream.destroy();
          setTimeout(() => client.destroy(), 50);
          return;
        }
      }
      if (out.length) client.write(out);
    });
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

it("a session ended between the new connection's settings fails the connect with the server's words, as a connection loss", async () => {
  const proxy = await endingAfterFirstSetting(Number(new URL(database.url).port || 5432));
  const url = new URL(database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  const pool = createPgPool({ connectionString: url.toString(), max: 1 }, { ...DEFAULT_PG_SETTINGS, queryTimeoutMs: 5_000 });
  try {
    const error = await pool.query("SELECT 1").then(
      () => new Error("answered"),
      (e: Error) => e,
    );
    expect(error.message).toContain("terminating connection due to administrator command");
    expect((error as { code?: string }).code).toBe("57P01");
    expect(isConnectionLoss(error)).toBe(true);
  } finally {
    await pool.end();
    await proxy.close();
  }
});

it("pg's code-less words for a query on a connection that already failed are a connection loss", () => {
  expect(isConnectionLoss(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
  expect(isConnectionLoss(new Error("select 1 - Client has encountered a connection error and is not queryable"))).toBe(true);
});
