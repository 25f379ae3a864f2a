import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { runCli } from "./cli.js";
import { bufferIo } from "./io.js";
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

  it("names a database URL that does not parse, without echoing its password", async () => {
    const message = (env: NodeJS.ProcessEnv) => {
      try {
        platformMode(env);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    const bad = "postgres://bob:S3cret@db:port/verdict";
    expect(message({ DATABASE_URL: bad })).toMatch(/^DATABASE_URL is not a valid URL: .*\(value not shown\)$/);
    expect(message({ DATABASE_URL: "postgres://db/verdict", VERDICT_READ_DATABASE_URL: bad })).toMatch(/^VERDICT_READ_DATABASE_URL is not a valid URL/);
    expect(message({ DATABASE_URL: bad })).not.toContain("S3cret");
    const io = bufferIo();
    expect(await runCli(["report", "run-1"], io, { DATABASE_URL: bad })).toBe(2);
    expect(io.stderr.join("")).toMatch(/^DATABASE_URL is not a valid URL/);
  });

  it("refuses Kafka without PostgreSQL and says what to set", () => {
    expect(() => platformMode({ KAFKA_BROKERS: "127.0.0.1:9092" })).toThrow(/Set DATABASE_URL \(e\.g\. postgres:\/\/.*\), or unset KAFKA_BROKERS/);
  });
});
