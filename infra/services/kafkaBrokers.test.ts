import { describe, expect, it } from "vitest";
import { defaultKafkaBrokers, kafkaBrokers } from "./kafkaBrokers.js";

describe("kafkaBrokers", () => {
  it("defaults to the local broker that infra/services/kafka.sh starts", () => {
    expect(kafkaBrokers({})).toEqual([defaultKafkaBrokers]);
    expect(kafkaBrokers({ KAFKA_BROKERS: "" })).toEqual(["127.0.0.1:9092"]);
  });

  it("splits a comma-separated list and trims blanks", () => {
    expect(kafkaBrokers({ KAFKA_BROKERS: " a:9092, b:9093 ,," })).toEqual(["a:9092", "b:9093"]);
  });

  it("rejects a list that names no broker", () => {
    expect(() => kafkaBrokers({ KAFKA_BROKERS: " , " })).toThrow("KAFKA_BROKERS must name at least one host:port");
  });
});
