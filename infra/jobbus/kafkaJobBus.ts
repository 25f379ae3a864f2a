// JobBus on Kafka through kafkajs. Topics are created with several partitions so that adding
// workers to a consumer group spreads the jobs; a job's key (the run id) picks its partition.
// Offsets are committed by kafkajs only after the handler resolves: a handler that throws, or
// a worker killed mid-job, leaves the offset uncommitted and the job is delivered again.
import type { Consumer, Kafka, Producer } from "kafkajs";
import type { ConsumeOptions, DeliveredJob, Job, JobBus, JobConsumer } from "@verdict/domain";
import { decodeMessage } from "./decodeMessage.js";
import { KafkaLogging, type KafkaLoggingOptions } from "./kafkaLogging.js";

/** How long the group coordinator waits for a heartbeat before it evicts a member. */
export const SESSION_TIMEOUT_MS = 10_000;
/** How often a consumer heartbeats: well inside SESSION_TIMEOUT_MS. */
export const HEARTBEAT_INTERVAL_MS = 1_000;

export interface KafkaJobBusOptions extends KafkaLoggingOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions for topics this bus creates; more partitions allow more parallel workers. */
  partitions?: number;
  /** kafkajs retries of a request (default 8, from 100 ms, doubling): a publish to a broker down gives up after them. */
  retry?: { retries: number; initialRetryTime: number };
  /** Logging already set up for these brokers (the worker's batch bus shares its own); else made from the options. */
  logging?: KafkaLogging;
}

export class KafkaJobBus implements JobBus {
  private readonly kafka: Kafka;
  private producer: Producer | null = null;
  private readonly consumers = new Set<Consumer>();
  private readonly ensuredTopics = new Set<string>();
  /** How this bus's Kafka clients log (kafkaLogging.ts). */
  readonly logging: KafkaLogging;

  constructor(private readonly options: KafkaJobBusOptions) {
    this.logging = options.logging ?? new KafkaLogging(options.brokers, options);
    this.kafka = this.logging.client(options.clientId ?? "verdict", options.retry);
  }

  async publish(topic: string, jobs: Job[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.ensureTopic(topic);
    const producer = await this.connectedProducer();
    await producer.send({
      topic,
      messages: jobs.map((job) => ({ key: job.key, value: JSON.stringify(job.value) })),
    });
    this.logging.reachable();
  }

  async consume(topic: string, handler: (job: DeliveredJob) => Promise<void>, options: ConsumeOptions): Promise<JobConsumer> {
    await this.ensureTopic(topic);
    const consumer = this.kafka.consumer({ groupId: options.group, sessionTimeout: SESSION_TIMEOUT_MS, heartbeatInterval: HEARTBEAT_INTERVAL_MS });
    this.consumers.add(consumer);
    this.logging.watch(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const attempts = new Map<string, number>();
    await consumer.run({
      partitionsConsumedConcurrently: Math.max(1, options.concurrency ?? 1),
      eachMessage: async ({ partition, message }) => {
        const id = `${partition}:${message.offset}`;
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        const value = decodeMessage(message.value);
        await this.logging.handled(topic, () => handler({ topic, key: message.key?.toString("utf8") ?? "", value, attempt }));
        attempts.delete(id);
      },
    });
    return {
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((consumer) => consumer.disconnect()));
    this.consumers.clear();
    await this.producer?.disconnect();
    this.producer = null;
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({ allowAutoTopicCreation: false });
      this.logging.watch(producer);
      await producer.connect();
      this.producer = producer;
    }
    return this.producer;
  }

  /**
   * The topic exists, with the configured partitions when this bus creates it; checked once per
   * topic for this bus. Public for buses that consume their own way but publish through this one.
   */
  async ensureTopic(topic: string): Promise<void> {
    if (this.ensuredTopics.has(topic)) return;
    const admin = this.kafka.admin();
    this.logging.watch(admin);
    await admin.connect();
    try {
      const existing = await admin.listTopics();
      if (!existing.includes(topic)) {
        const numPartitions = this.options.partitions ?? 6;
        await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions, replicationFactor: 1 }] }).catch((error: unknown) => {
          throw topicRefused(error, topic, numPartitions, this.logging.broker);
        });
      }
    } finally {
      await admin.disconnect();
    }
    this.ensuredTopics.add(topic);
  }
}

/**
 * The broker's refusal to create `topic`, naming it and what to change: kafkajs said only "Topic
 * creation errors" (its reasons in `errors`, each with the broker's error type). Other errors as they are.
 */
function topicRefused(error: unknown, topic: string, partitions: number, broker: string): unknown {
  const reasons = (error as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(reasons) || reasons.length === 0) return error;
  const why = reasons.map((reason: { message?: unknown; type?: unknown }) => `${String(reason.message)}${typeof reason.type === "string" ? ` (${reason.type})` : ""}`).join("; ");
  return new Error(
    `${broker} refused to create topic "${topic}" (${partitions} partitions, replication factor 1): ${why}. ` +
      "Create the topic on the broker, or set VERDICT_TOPIC_PREFIX to give this deployment's topics other names",
  );
}
