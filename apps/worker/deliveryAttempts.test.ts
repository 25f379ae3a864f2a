import { describe, expect, it } from "vitest";
import { DeliveryAttempts } from "./deliveryAttempts.js";

describe("DeliveryAttempts (a Kafka consumer's count of each job's deliveries)", () => {
  it("counts a job's deliveries until it succeeds", () => {
    const attempts = new DeliveryAttempts();
    expect(attempts.next(0, "7")).toBe(1);
    expect(attempts.next(0, "7")).toBe(2);
    expect(attempts.next(1, "7")).toBe(1); // another partition's offset 7 is another job
    attempts.succeeded(0, "7");
    expect(attempts.next(0, "7")).toBe(1);
    expect(attempts.size).toBe(2);
  });

  it("forgets jobs that failed here once a rebalance gave their partition to another member, and keeps counting the rest", () => {
    const attempts = new DeliveryAttempts();
    // Jobs that failed on partitions 0-5, then a rebalance left this member 1 and 4.
    for (let partition = 0; partition < 6; partition += 1) for (let offset = 0; offset < 100; offset += 1) attempts.next(partition, String(offset));
    attempts.keepOnly([1, 4]);
    expect(attempts.size).toBe(200);
    expect(attempts.next(1, "0")).toBe(2);
    expect(attempts.next(2, "0")).toBe(1);
    // Another member took everything: nothing stays for the consumer's lifetime.
    attempts.keepOnly([]);
    expect(attempts.size).toBe(0);
  });
});
