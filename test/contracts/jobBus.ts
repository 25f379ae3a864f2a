// The one JobBus contract suite: every adapter (memory, kafka) runs it.
// `skip` names a case an adapter cannot run and why; it is shown as the skip reason.
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveredJob, JobBus, JobConsumer } from "@verdict/domain";

export interface JobBusContractOptions {
  skip?: Record<string, string>;
  /** How long to wait for deliveries (a real broker needs a rebalance first). */
  timeoutMs?: number;
}

export function jobBusContract(name: string, makeBus: () => Promise<JobBus>, options: JobBusContractOptions = {}): void {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const open: Array<{ bus: JobBus; consumers: JobConsumer[] }> = [];
  let counter = 0;
  const unique = (label: string) => `verdict-contract-${label}-${process.pid}-${Date.now()}-${(counter += 1)}`;

  async function bus(): Promise<{ bus: JobBus; consumers: JobConsumer[] }> {
    const entry = { bus: await makeBus(), consumers: [] as JobConsumer[] };
    open.push(entry);
    return entry;
  }

  async function collect(entry: { bus: JobBus; consumers: JobConsumer[] }, topic: string, group: string, sink: DeliveredJob[], fail?: (job: DeliveredJob) => boolean) {
    const consumer = await entry.bus.consume(
      topic,
      async (job) => {
        if (fail?.(job)) throw new Error(`handler refused ${String(job.key)} on attempt ${job.attempt}`);
        sink.push(job);
      },
      { group },
    );
    entry.consumers.push(consumer);
    return consumer;
  }

  const caseOf = (title: string, body: () => Promise<void>) => {
    const reason = options.skip?.[title];
    if (reason) it.skip(`${title} (skipped: ${reason})`, body);
    else it(title, body, timeoutMs * 3);
  };

  describe(`JobBus contract: ${name}`, () => {
    afterEach(async () => {
      for (const entry of open.splice(0)) {
        for (const consumer of entry.consumers) await consumer.stop();
        await entry.bus.close();
      }
    });

    caseOf("delivers every published job once to a group, with its key and value", async () => {
      const entry = await bus();
      const topic = unique("once");
      const seen: DeliveredJob[] = [];
      await collect(entry, topic, unique("group"), seen);
      await entry.bus.publish(topic, [1, 2, 3].map((n) => ({ key: "run-a", value: { n, scenario: `s${n}` } })));
      await expect.poll(() => seen.length, { timeout: timeoutMs }).toBe(3);
      expect(seen.map((job) => (job.value as { n: number }).n).sort()).toEqual([1, 2, 3]);
      expect(seen.every((job) => job.key === "run-a" && job.topic === topic)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen).toHaveLength(3);
    });

    caseOf("a group that starts after the publish still receives the jobs", async () => {
      const entry = await bus();
      const topic = unique("late");
      await entry.bus.publish(topic, [{ key: "k", value: "early" }]);
      const seen: DeliveredJob[] = [];
      await collect(entry, topic, unique("group"), seen);
      await expect.poll(() => seen.map((job) => job.value), { timeout: timeoutMs }).toEqual(["early"]);
    });

    caseOf("each group sees every job", async () => {
      const entry = await bus();
      const topic = unique("groups");
      const first: DeliveredJob[] = [];
      const second: DeliveredJob[] = [];
      await collect(entry, topic, unique("g1"), first);
      await collect(entry, topic, unique("g2"), second);
      await entry.bus.publish(topic, [{ key: "a", value: 1 }, { key: "b", value: 2 }]);
      await expect.poll(() => [first.length, second.length], { timeout: timeoutMs }).toEqual([2, 2]);
    });

    caseOf("a job whose handler throws is delivered again", async () => {
      const entry = await bus();
      const topic = unique("retry");
      const seen: DeliveredJob[] = [];
      await collect(entry, topic, unique("group"), seen, (job) => job.attempt === 1);
      await entry.bus.publish(topic, [{ key: "r", value: "flaky" }]);
      await expect.poll(() => seen.length, { timeout: timeoutMs }).toBe(1);
      expect(seen[0].attempt).toBeGreaterThan(1);
      expect(seen[0].value).toBe("flaky");
    });

    caseOf("a restarted consumer resumes after the acknowledged jobs", async () => {
      const entry = await bus();
      const topic = unique("resume");
      const group = unique("group");
      const before: DeliveredJob[] = [];
      const consumer = await collect(entry, topic, group, before);
      await entry.bus.publish(topic, [{ key: "k", value: 1 }]);
      await expect.poll(() => before.length, { timeout: timeoutMs }).toBe(1);
      await consumer.stop();
      entry.consumers.splice(entry.consumers.indexOf(consumer), 1);
      await entry.bus.publish(topic, [{ key: "k", value: 2 }]);
      const after: DeliveredJob[] = [];
      await collect(entry, topic, group, after);
      await expect.poll(() => after.map((job) => job.value), { timeout: timeoutMs }).toEqual([2]);
    });
  });
}
