// Starting the worker on Kafka (`verdict start` with KAFKA_BROKERS): a broker that cannot be
// reached ended as kafkajs's `Connection error: connect ECONNREFUSED 127.0.0.1:9092`, exit 1,
// naming neither the variable that chose it nor what to do. Like a database out of reach
// (databaseConnect.ts), it is exit 4 naming KAFKA_BROKERS.
import { CliError, EXIT } from "./errors.js";

/** kafkajs's errors for a broker that did not answer, its own or the cause of its last retry. */
const UNREACHABLE = new Set(["KafkaJSConnectionError", "KafkaJSConnectionClosedError", "KafkaJSRequestTimeoutError", "KafkaJSBrokerNotFound", "KafkaJSNoBrokerAvailableError"]);

function unreachable(error: unknown): Error | null {
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    if (UNREACHABLE.has(cause.name)) return cause;
  }
  return null;
}

/** `work` (what starts on `brokers`); a broker out of reach is an error naming KAFKA_BROKERS. */
export async function reachingKafka<T>(brokers: readonly string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const cause = unreachable(error);
    if (cause === null) throw error;
    throw new CliError(
      `KAFKA_BROKERS: cannot reach Kafka at ${brokers.join(", ")} (${cause.message}). Start the broker, or set KAFKA_BROKERS to ` +
        "brokers that are reachable (host:port, comma separated), or unset it for the in-memory job bus.",
      EXIT.unavailable,
    );
  }
}
