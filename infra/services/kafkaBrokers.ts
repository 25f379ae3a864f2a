/** Broker list for tests: KAFKA_BROKERS, comma separated and checked (parseKafkaBrokers), else the local broker. */
import { parseKafkaBrokers } from "../jobbus/kafkaBrokerList.js";

export const defaultKafkaBrokers = "127.0.0.1:9092";

export function kafkaBrokers(env: NodeJS.ProcessEnv = process.env): string[] {
  const brokers = parseKafkaBrokers(env.KAFKA_BROKERS || defaultKafkaBrokers);
  if (brokers.length === 0) throw new Error("KAFKA_BROKERS must name at least one host:port");
  return brokers;
}
