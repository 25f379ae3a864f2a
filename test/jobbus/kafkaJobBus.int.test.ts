import { KafkaJobBus } from "@verdict/infra/jobbus";
import { jobBusContract } from "../contracts/jobBus.js";

const brokers = (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");

// A real broker: a new consumer group joins after a rebalance, which takes a few seconds.
jobBusContract("kafka", async () => new KafkaJobBus({ brokers, partitions: 3 }), { timeoutMs: 20_000 });
