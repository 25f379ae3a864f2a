// Starting the worker on Kafka (`verdict start` with KAFKA_BROKERS): a broker that cannot be
// reached ended as kafkajs's `Connection error: connect ECONNREFUSED 127.0.0.1:9092`, exit 1,
// naming neither the variable that chose it nor what to do. Like a database out of reach
// (databaseConnect.ts), it is exit 4 naming KAFKA_BROKERS (the wording is infra's, the worker's too).
import { kafkaUnreachableCause, kafkaUnreachableLine } from "@verdict/infra/jobbus";
import { CliError, EXIT } from "./errors.js";

/** `work` (what starts on `brokers`); a broker out of reach is an error naming KAFKA_BROKERS. */
export async function reachingKafka<T>(brokers: readonly string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const cause = kafkaUnreachableCause(error);
    if (cause === null) throw error;
    throw new CliError(kafkaUnreachableLine(brokers, cause, ", or unset it for the in-memory job bus"), EXIT.unavailable);
  }
}
