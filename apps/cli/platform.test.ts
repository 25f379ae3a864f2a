import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { describeMode, platformMode } from "./platform.js";

describe("platformMode", () => {
  it("is the embedded default under ./.verdict when nothing is set", () => {
    const mode = platformMode({});
    expect(mode).toEqual({ embedded: true, home: resolve(".verdict"), databaseUrl: null, readUrl: null, kafkaBrokers: [] });
    expect(describeMode(mode)).toBe(`embedded: PGlite under ${resolve(".verdict")}, in-memory job bus`);
    expect(platformMode({ VERDICT_HOME: "/tmp/elsewhere" }).home).toBe("/tmp/elsewhere");
  });

  it("uses PostgreSQL for events and read models, and Kafka when brokers are named", () => {
    const mode = platformMode({ DATABASE_URL: "postgres://db/verdict", KAFKA_BROKERS: " 127.0.0.1:9092, ,h2:9092" });
    expect(mode).toMatchObject({ embedded: false, databaseUrl: "postgres://db/verdict", readUrl: "postgres://db/verdict", kafkaBrokers: ["127.0.0.1:9092", "h2:9092"] });
    expect(describeMode(mode)).toBe("PostgreSQL (DATABASE_URL), Kafka at 127.0.0.1:9092,h2:9092");
    const split = platformMode({ DATABASE_URL: "postgres://db/events", VERDICT_READ_DATABASE_URL: "postgres://db/read" });
    expect(split).toMatchObject({ readUrl: "postgres://db/read", kafkaBrokers: [] });
    expect(describeMode(split)).toContain("in-memory job bus (set KAFKA_BROKERS for Kafka)");
  });

  it("refuses Kafka without PostgreSQL and says what to set", () => {
    expect(() => platformMode({ KAFKA_BROKERS: "127.0.0.1:9092" })).toThrow(/Set DATABASE_URL \(e\.g\. postgres:\/\/.*\), or unset KAFKA_BROKERS/);
  });
});
