import { describe, expect, it } from "vitest";
import { elapsed, Outages, RepeatLimiter } from "./index.js";

function recording() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(`info: ${m}`), error: (m: string) => lines.push(`error: ${m}`) } };
}

describe("Outages", () => {
  it("says a dependency is unreachable once, again every 30 s with the repeats not shown, and once when it is back", () => {
    let now = 0;
    const { lines, log } = recording();
    const outages = new Outages(log, { now: () => now });
    for (; now < 160_000; now += 2_000) outages.down("Kafka broker 127.0.0.1:9092", "Connection error: connect ECONNREFUSED 127.0.0.1:9092");
    outages.up("Kafka broker 127.0.0.1:9092");
    outages.up("Kafka broker 127.0.0.1:9092"); // already back: nothing more
    expect(lines).toEqual([
      "error: Kafka broker 127.0.0.1:9092 unreachable: Connection error: connect ECONNREFUSED 127.0.0.1:9092",
      "error: Kafka broker 127.0.0.1:9092 still unreachable after 30s: Connection error: connect ECONNREFUSED 127.0.0.1:9092; 14 repeats not shown",
      "error: Kafka broker 127.0.0.1:9092 still unreachable after 1m00s: Connection error: connect ECONNREFUSED 127.0.0.1:9092; 14 repeats not shown",
      "error: Kafka broker 127.0.0.1:9092 still unreachable after 1m30s: Connection error: connect ECONNREFUSED 127.0.0.1:9092; 14 repeats not shown",
      "error: Kafka broker 127.0.0.1:9092 still unreachable after 2m00s: Connection error: connect ECONNREFUSED 127.0.0.1:9092; 14 repeats not shown",
      "error: Kafka broker 127.0.0.1:9092 still unreachable after 2m30s: Connection error: connect ECONNREFUSED 127.0.0.1:9092; 14 repeats not shown",
      "info: Kafka broker 127.0.0.1:9092 reachable again after 2m40s; 4 repeats not shown",
    ]);
  });

  it("keeps dependencies apart, and a dependency never down says nothing when it answers", () => {
    const { lines, log } = recording();
    const outages = new Outages(log, { now: () => 0 });
    outages.up("PostgreSQL db:5432/verdict");
    outages.down("PostgreSQL db:5432/verdict", "connect ECONNREFUSED");
    outages.down("Kafka broker k:9092", "Connection timeout");
    outages.down("PostgreSQL db:5432/verdict", "connect ECONNREFUSED");
    expect(outages.unreachable).toEqual(["PostgreSQL db:5432/verdict", "Kafka broker k:9092"]);
    outages.up("PostgreSQL db:5432/verdict");
    expect(lines).toEqual([
      "error: PostgreSQL db:5432/verdict unreachable: connect ECONNREFUSED",
      "error: Kafka broker k:9092 unreachable: Connection timeout",
      "info: PostgreSQL db:5432/verdict reachable again after 0ms; 1 repeat not shown",
    ]);
  });
});

describe("RepeatLimiter", () => {
  it("shows a line repeated every 2 s once per 30 s with its count, and a different line at once", () => {
    let now = 0;
    const { lines, log } = recording();
    const limited = new RepeatLimiter({ now: () => now }).wrap(log);
    for (; now < 68_000; now += 2_000) limited.error("dispatcher could not start: connect ECONNREFUSED 127.0.0.1:5432; retrying");
    limited.error("dispatcher: something else");
    limited.info("run r1: 4 replay jobs published");
    limited.info("run r1: 4 replay jobs published");
    expect(lines).toEqual([
      "error: dispatcher could not start: connect ECONNREFUSED 127.0.0.1:5432; retrying",
      "error: dispatcher could not start: connect ECONNREFUSED 127.0.0.1:5432; retrying (repeated 14 more times since it was last shown)",
      "error: dispatcher could not start: connect ECONNREFUSED 127.0.0.1:5432; retrying (repeated 14 more times since it was last shown)",
      "error: dispatcher: something else",
      "info: run r1: 4 replay jobs published",
      "info: run r1: 4 replay jobs published",
    ]);
  });
});

describe("elapsed", () => {
  it("reads as a person says it", () => {
    expect([850, 45_000, 160_000, 3_900_000].map(elapsed)).toEqual(["850ms", "45s", "2m40s", "1h05m"]);
  });
});
