// A Kafka broker that cannot be reached ended as kafkajs's bare `Connection error: connect
// ECONNREFUSED 127.0.0.1:9092`, naming neither the variable that chose it nor what to do. The one
// wording for it, shared by `verdict start` (apps/cli/kafkaConnect.ts, exit 4) and the worker
// process (apps/worker/main.ts, exit 1): here, since apps do not import one another that way.

/** kafkajs's errors for a broker that did not answer, its own or the cause of its last retry. */
const UNREACHABLE = new Set(["KafkaJSConnectionError", "KafkaJSConnectionClosedError", "KafkaJSRequestTimeoutError", "KafkaJSBrokerNotFound", "KafkaJSNoBrokerAvailableError"]);

/** The error (or the cause along its chain) that says no broker answered; null for any other failure. */
export function kafkaUnreachableCause(error: unknown): Error | null {
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    if (UNREACHABLE.has(cause.name)) return cause;
  }
  return null;
}

/** The line naming KAFKA_BROKERS and the brokers; `otherwise` is one more way out (the CLI's in-memory bus). */
export function kafkaUnreachableLine(brokers: readonly string[], cause: Error, otherwise = ""): string {
  return (
    `KAFKA_BROKERS: cannot reach Kafka at ${brokers.join(", ")} (${cause.message}). Start the broker, or set KAFKA_BROKERS to ` +
    `brokers that are reachable (host:port, comma separated)${otherwise}.`
  );
}
