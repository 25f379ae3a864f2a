// KAFKA_BROKERS, read the same way by every process that takes it (`verdict start`, the worker).
// Each entry must be host:port: kafkajs splits an entry at its colons and failed late, with
// "Port should be >= 0 ... (NaN)", on `user:password@host:9092` or `kafka://host:9092`, and
// `verdict start` had printed the list, password and all. SASL and TLS are not supported.
import { SettingError } from "../settings/index.js";

/** KAFKA_BROKERS names an entry that is not host:port: a SettingError, so a process started with it stops with exit 2. */
export class KafkaBrokersError extends SettingError {}

/** A host name or an IPv4 address, then a port: no scheme, user, password or path. */
const HOST_PORT = /^[A-Za-z0-9._-]+:(\d{1,5})$/;

/**
 * The brokers KAFKA_BROKERS names, comma separated, blanks dropped ([] when it is unset or names
 * none). An entry that is not host:port is refused by position, the value not shown: it may hold
 * a password.
 */
export function parseKafkaBrokers(value: string | undefined): string[] {
  const brokers = (value ?? "").split(",").map((broker) => broker.trim()).filter(Boolean);
  brokers.forEach((broker, index) => {
    const port = Number(HOST_PORT.exec(broker)?.[1] ?? 0);
    if (port < 1 || port > 65535) {
      throw new KafkaBrokersError(
        "KAFKA_BROKERS",
        `KAFKA_BROKERS entry ${index + 1} is not host:port: name the Kafka brokers as host:port, comma separated (e.g. 127.0.0.1:9092), ` +
          "without a scheme (kafka://) or a user and password (user:password@): SASL is not supported (value not shown)",
      );
    }
  });
  return brokers;
}
