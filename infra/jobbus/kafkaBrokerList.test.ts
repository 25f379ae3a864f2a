import { describe, expect, it } from "vitest";
import { KafkaBrokersError, parseKafkaBrokers } from "./kafkaBrokerList.js";

const refusal = (value: string): string => {
  try {
    parseKafkaBrokers(value);
    return "";
  } catch (error) {
    expect(error).toBeInstanceOf(KafkaBrokersError);
    return (error as Error).message;
  }
};

describe("parseKafkaBrokers", () => {
  it("splits a comma-separated list of host:port, blanks dropped", () => {
    expect(parseKafkaBrokers(" 127.0.0.1:9092, ,kafka-1.internal:19092,")).toEqual(["127.0.0.1:9092", "kafka-1.internal:19092"]);
    expect(parseKafkaBrokers(undefined)).toEqual([]);
    expect(parseKafkaBrokers(" , ")).toEqual([]);
  });

  it("refuses an entry with a user and password, a scheme, or that is not host:port, by position and without its value", () => {
    const rule = "is not host:port: name the Kafka brokers as host:port, comma separated (e.g. 127.0.0.1:9092), without a scheme (kafka://) or a user and password (user:password@): SASL is not supported (value not shown)";
    expect(refusal("user:CANARY-KAFKA-PW9@127.0.0.1:9092")).toBe(`KAFKA_BROKERS entry 1 ${rule}`);
    for (const entry of ["kafka://127.0.0.1:9092", "CANARY-KAFKA-PW9@h:9092", "127.0.0.1", "h:0", "h:65536", "h:92/x", ":9092", "h :9092", "[::1]:9092"]) {
      expect(refusal(`127.0.0.1:9092,${entry}`), entry).toBe(`KAFKA_BROKERS entry 2 ${rule}`);
    }
    expect(refusal("user:CANARY-KAFKA-PW9@127.0.0.1:9092")).not.toContain("CANARY");
  });
});
