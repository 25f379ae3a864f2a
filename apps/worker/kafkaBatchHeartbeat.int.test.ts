// A job that runs longer than the consumer's session timeout must not cost the consumer its
// group membership: kafkajs sends no background heartbeats, so a handler busy past the session
// timeout got the member evicted and its uncommitted job delivered again (a replay run twice,
// the agent's tools with it).
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { DeliveredJob } from "@verdict/domain";
import { SESSION_TIMEOUT_MS } from "@verdict/infra/jobbus";
import { KafkaBatchJobBus } from "./kafkaBatchBus.js";

const brokers = (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");
const bus = new KafkaBatchJobBus({ brokers, partitions: 1 });
afterAll(() => bus.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("KafkaBatchJobBus with a job longer than the session timeout", () => {
  it("delivers it once: the consumer heartbeats while the job runs", { timeout: 90_000 }, async () => {
    const topic = `verdict.test.heartbeat.${randomUUID()}`;
    const deliveries: DeliveredJob[] = [];
    let finished = 0;
    const consumer = await bus.consume(
      topic,
      async (job) => {
        deliveries.push(job);
        await sleep(SESSION_TIMEOUT_MS + 5_000);
        finished += 1;
      },
      { group: `heartbeat-${randomUUID()}`, concurrency: 2 },
    );
    await bus.publish(topic, [{ key: "run-1", value: { n: 0 } }]);
    const deadline = Date.now() + 60_000;
    while (finished === 0 && Date.now() < deadline) await sleep(200);
    // Room for a redelivery after the commit, had the membership been lost.
    await sleep(5_000);
    await consumer.stop();
    expect(finished).toBeGreaterThan(0);
    expect(deliveries.map((job) => job.attempt)).toEqual([1]);
  });
});
