/** Broker list for tests and the kafka adapter: KAFKA_BROKERS, comma separated. */
export const defaultKafkaBrokers = "127.0.0.1:9092";

export function kafkaBrokers(env: NodeJS.ProcessEnv = process.env): string[] {
  const brokers = (env.KAFKA_BROKERS || defaultKafkaBrokers)
    .split(",")
    .map((broker) => broker.trim())
    .filter((broker) => broker.length > 0);
  if (brokers.length === 0) throw new Error("KAFKA_BROKERS must name at least one host:port");
  return brokers;
}
