// A job failing because the database is unreachable is one condensed line for the outage (and one
// when it answers), not kafkajs's "Error when calling eachBatch" with a stack per partition per
// retry; the job is still delivered again until it succeeds (at least once, acked after).
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeliveredJob } from "@verdict/domain";
import { KafkaBatchJobBus } from "./kafkaBatchBus.js";

const brokers = (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");

describe("KafkaBatchJobBus logging", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reports a database outage failing jobs once, and its end, and still redelivers the job", async () => {
    const printed = [vi.spyOn(console, "error"), vi.spyOn(console, "log"), vi.spyOn(console, "warn"), vi.spyOn(console, "info")].map((spy) => spy.mockImplementation(() => undefined));
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(`info: ${m}`), error: (m: string) => lines.push(`error: ${m}`) };
    const bus = new KafkaBatchJobBus({
      brokers,
      partitions: 2,
      log,
      unreachable: (error) => ((error as { code?: string }).code === "ECONNREFUSED" ? "PostgreSQL 127.0.0.1:5432/verdict" : null),
    });
    const topic = `verdict.test.batchlogging.${randomUUID()}`;
    const attempts: number[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    try {
      await bus.publish(topic, [{ key: "run-1", value: { n: 1 } }]);
      const consumer = await bus.consume(
        topic,
        async (job: DeliveredJob) => {
          attempts.push(job.attempt);
          if (job.attempt <= 4) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
          done();
        },
        { group: `verdict-test-${randomUUID()}`, concurrency: 2 },
      );
      await finished;
      await consumer.stop();
      expect(attempts).toEqual([1, 2, 3, 4, 5]);
      expect(lines).toEqual([
        "error: PostgreSQL 127.0.0.1:5432/verdict unreachable: connect ECONNREFUSED 127.0.0.1:5432 (" + topic + " jobs are delivered again until it answers)",
        expect.stringMatching(/^info: PostgreSQL 127\.0\.0\.1:5432\/verdict reachable again after \d+(ms|s); 3 repeats not shown$/),
      ]);
      for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    } finally {
      await bus.close();
    }
  }, 30_000);
});
