import { describe, expect, it } from "vitest";
import type { Consumer } from "kafkajs";
import { KafkaLogging } from "./kafkaLogging.js";

describe("KafkaLogging.watch", () => {
  it("names how long a timed-out request waited, from when it was made (kafkajs's pendingDuration is its queueing, often 0)", () => {
    const errors: string[] = [];
    const logging = new KafkaLogging(["127.0.0.1:9092"], { log: { info: () => undefined, error: (line) => void errors.push(line) } });
    const listeners = new Map<string, (event: { payload: unknown }) => void>();
    const client = { events: { REQUEST_TIMEOUT: "consumer.network.request_timeout" }, on: (name: string, listener: (event: { payload: unknown }) => void) => void listeners.set(name, listener) };
    logging.watch(client as unknown as Consumer);
    const createdAt = Date.now() - 30_000;
    listeners.get("consumer.network.request_timeout")!({ payload: { apiName: "Fetch", broker: "127.0.0.1:9092", createdAt, sentAt: createdAt, pendingDuration: 0 } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Kafka broker 127\.0\.0\.1:9092 unreachable: request Fetch to 127\.0\.0\.1:9092 timed out after 30\d\d\dms$/);
  });
});
