// The worker's batch-consuming Kafka bus against the shared job bus contract on a real broker
// (delivery, redelivery after a throw, ack only after the handler, keys, groups).
import { jobBusContract } from "../../test/contracts/jobBus.js";
import { KafkaBatchJobBus } from "./kafkaBatchBus.js";

const brokers = (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");

// A new consumer group joins after a rebalance, which takes a few seconds.
jobBusContract("kafka (batches, worker)", async () => new KafkaBatchJobBus({ brokers, partitions: 3 }), { timeoutMs: 20_000 });
