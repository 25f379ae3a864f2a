import { randomBytes } from "node:crypto";
import { Kafka, logLevel, Partitioners, type Admin, type Consumer, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kafkaBrokers } from "../../infra/services/kafkaBrokers.js";

// Proves the Kafka service is real: a message goes through the local broker to a consumer in a
// consumer group, and the group's committed offset is stored by the broker's coordinator.
describe("Kafka service (smoke)", () => {
  const suffix = `${Date.now()}-${randomBytes(3).toString("hex")}`;
  const topic = `verdict.smoke.${suffix}`;
  const groupId = `verdict-smoke-${suffix}`;
  const kafka = new Kafka({ clientId: "verdict-smoke", brokers: kafkaBrokers(), logLevel: logLevel.ERROR });
  let admin: Admin;
  let producer: Producer;
  let consumer: Consumer;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    consumer = kafka.consumer({ groupId });
    await consumer.connect();
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await admin?.deleteGroups([groupId]).catch(() => undefined);
    await admin?.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin?.disconnect();
  });

  it("round-trips a message through a consumer group and commits its offset", async () => {
    await consumer.subscribe({ topic, fromBeginning: true });
    const received = new Promise<{ key: string; value: string; partition: number; offset: string }>(
      (resolve) => {
        void consumer.run({
          eachMessage: async ({ message, partition }) => {
            resolve({
              key: message.key?.toString() ?? "",
              value: message.value?.toString() ?? "",
              partition,
              offset: message.offset,
            });
          },
        });
      },
    );

    await producer.send({ topic, messages: [{ key: "run-1", value: JSON.stringify({ scenario: "smoke" }) }] });

    const message = await received;
    expect(message).toEqual({ key: "run-1", value: '{"scenario":"smoke"}', partition: 0, offset: "0" });

    // eachMessage resolving marks the offset; stopping the consumer commits it to the group.
    await consumer.stop();
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    expect(committed.partitions).toEqual([{ partition: 0, offset: "1", metadata: null }]);
  });
});
