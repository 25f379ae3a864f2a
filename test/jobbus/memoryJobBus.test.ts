import { describe, expect, it } from "vitest";
import type { DeliveredJob } from "@verdict/domain";
import { MemoryJobBus } from "@verdict/infra/jobbus";
import { jobBusContract } from "../contracts/jobBus.js";

jobBusContract("memory", async () => new MemoryJobBus(), { timeoutMs: 2_000 });

describe("MemoryJobBus retention", () => {
  const jobs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ key: "run", value: from + i }));
  const values = (seen: DeliveredJob[]) => seen.map((job) => job.value as number);

  it("drops the jobs every group has taken, so a long-lived process does not keep them all", async () => {
    const bus = new MemoryJobBus();
    const first: DeliveredJob[] = [];
    const a = await bus.consume("t", async (job) => void first.push(job), { group: "a" });
    await bus.publish("t", jobs(5_000));
    await expect.poll(() => first.length).toBe(5_000);
    expect(values(first)).toEqual(jobs(5_000).map((job) => job.value));
    const kept = bus.retained("t");
    expect(kept).toBeLessThan(1_024);

    // A group that starts now begins at the oldest job still kept, and then takes every new one.
    const second: DeliveredJob[] = [];
    const b = await bus.consume("t", async (job) => void second.push(job), { group: "b" });
    await bus.publish("t", jobs(3_000, 5_000));
    await expect.poll(() => [first.length, second.length]).toEqual([8_000, kept + 3_000]);
    expect(values(second)).toEqual(jobs(kept + 3_000, 5_000 - kept).map((job) => job.value));
    expect(bus.retained("t")).toBeLessThan(1_024);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("keeps jobs published before any group consumes the topic until one takes them", async () => {
    const bus = new MemoryJobBus();
    await bus.publish("t", jobs(3_000));
    expect(bus.retained("t")).toBe(3_000);
    const seen: DeliveredJob[] = [];
    const consumer = await bus.consume("t", async (job) => void seen.push(job), { group: "late" });
    await expect.poll(() => seen.length).toBe(3_000);
    expect(values(seen)[0]).toBe(0);
    expect(bus.retained("t")).toBeLessThan(1_024);
    await consumer.stop();
  });

  it("a job handled while the log is trimmed is still redelivered when its handler throws", async () => {
    const bus = new MemoryJobBus();
    const done: number[] = [];
    const consumer = await bus.consume(
      "t",
      async (job) => {
        if (job.value === 1_500 && job.attempt === 1) throw new Error("flaky");
        done.push(job.value as number);
      },
      { group: "g" },
    );
    await bus.publish("t", jobs(3_000));
    await expect.poll(() => done.length).toBe(3_000);
    expect(new Set(done).size).toBe(3_000);
    await consumer.stop();
  });
});
