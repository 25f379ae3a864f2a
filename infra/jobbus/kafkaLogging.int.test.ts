// The Kafka bus logs through the platform's log, condensed: a broker that is not there is one
// line naming it (not a kafkajs JSON line with a stack per retry), and one line when it answers.
import { createServer, connect, type Server, type Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KafkaJobBus } from "./kafkaJobBus.js";

const broker = (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",")[0];

function recording() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(`info: ${m}`), error: (m: string) => lines.push(`error: ${m}`) } };
}

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Forwards `port` to the real broker (kafkajs then finds the broker by the address it advertises). */
async function proxy(port: number): Promise<{ close(): Promise<void> }> {
  const [host, brokerPort] = broker.split(":");
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(brokerPort), host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("KafkaJobBus logging", () => {
  afterEach(() => vi.restoreAllMocks());

  it("says once that the broker is unreachable, prints nothing of kafkajs's own, and says when it answers again", async () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const others = [vi.spyOn(console, "log"), vi.spyOn(console, "warn"), vi.spyOn(console, "info")].map((spy) => spy.mockImplementation(() => undefined));
    const port = await freePort();
    const { lines, log } = recording();
    const bus = new KafkaJobBus({ brokers: [`127.0.0.1:${port}`], log, retry: { retries: 3, initialRetryTime: 50 }, partitions: 1 });
    const topic = `verdict.test.logging.${randomUUID()}`;
    try {
      await expect(bus.publish(topic, [{ key: "k", value: { n: 1 } }])).rejects.toThrow();
      await expect(bus.publish(topic, [{ key: "k", value: { n: 2 } }])).rejects.toThrow();
      // kafkajs logged a connection error per retry (and a seed broker line each): all one line.
      expect(lines).toEqual([`error: Kafka broker 127.0.0.1:${port} unreachable: Connection error: connect ECONNREFUSED 127.0.0.1:${port}`]);
      const forwarding = await proxy(port);
      try {
        await bus.publish(topic, [{ key: "k", value: { n: 3 } }]);
        expect(lines.slice(1)).toHaveLength(1);
        expect(lines[1]).toMatch(new RegExp(`^info: Kafka broker 127\\.0\\.0\\.1:${port} reachable again after \\d+(ms|s); \\d+ repeats? not shown$`));
      } finally {
        await bus.close();
        await forwarding.close();
      }
      expect(printed).not.toHaveBeenCalled();
      for (const spy of others) expect(spy).not.toHaveBeenCalled();
    } finally {
      await bus.close();
    }
  }, 20_000);
});
