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

describe("KafkaLogging.entry", () => {
  function logged(): { logging: KafkaLogging; errors: string[] } {
    const errors: string[] = [];
    const logging = new KafkaLogging(["127.0.0.1:9092"], { log: { info: () => undefined, error: (line) => void errors.push(line) } });
    return { logging, errors };
  }
  const response = (api: string, error: string) => ({ namespace: "Connection", level: 1, label: "ERROR", log: { timestamp: "", logger: "kafkajs", message: `Response ${api}`, error, correlationId: 7, size: 10 } });

  it("keeps a consumer group's rebalancing (another worker joining or leaving) out of the error lines", () => {
    const { logging, errors } = logged();
    logging.entry(response("Heartbeat(key: 12, version: 3)", "The group is rebalancing, so a rejoin is needed"));
    logging.entry(response("SyncGroup(key: 14, version: 3)", "The coordinator is not aware of this member"));
    logging.entry(response("OffsetCommit(key: 8, version: 5)", "Specified group generation id is not valid"));
    expect(errors).toEqual([]);
  });

  it("says what an other response error was, not only which request it answered", () => {
    const { logging, errors } = logged();
    logging.entry(response("Produce(key: 0, version: 7)", "The request included a message larger than the max message size the server will accept"));
    expect(errors).toEqual(["kafkajs: [Connection] Response Produce(key: 0, version: 7): The request included a message larger than the max message size the server will accept"]);
  });
});
