// The worker's job bus on Kafka: publishing and topic creation are the shared KafkaJobBus's, and
// so are the consumer's session and heartbeat settings, but jobs are consumed a batch at a time
// (kafkajs eachBatch) with up to `window` of a partition's jobs in flight, instead of one message
// per partition at a time. Replay jobs are keyed by run id, so a whole run sits in one partition:
// one job at a time there meant one pair at a time for the run, whatever the number of workers.
// Offsets still only move past a job after its handler resolved, and only over a prefix of
// finished jobs (a job that fails stops the batch; it and the jobs after it are delivered again),
// so "commit only after the append" holds.
import type { Consumer, Kafka, KafkaMessage } from "kafkajs";
import type { ConsumeOptions, DeliveredJob, Job, JobBus, JobConsumer } from "@verdict/domain";
import { HEARTBEAT_INTERVAL_MS, KafkaJobBus, KafkaLogging, SESSION_TIMEOUT_MS, decodeMessage, type KafkaJobBusOptions } from "@verdict/infra/jobbus";
import { DeliveryAttempts } from "./deliveryAttempts.js";
import { WorkerStopping } from "./workerStopping.js";

export class KafkaBatchJobBus implements JobBus {
  private readonly kafka: Kafka;
  private readonly publisher: KafkaJobBus;
  private readonly consumers = new Set<Consumer>();
  /** Shared with the publisher: one outage is one line (kafkaLogging.ts). */
  readonly logging: KafkaLogging;
  #running = 0;

  /** Jobs whose handler runs now: what a shutdown cut short at its deadline leaves to be delivered again. */
  get jobsRunning(): number {
    return this.#running;
  }

  constructor(options: KafkaJobBusOptions) {
    this.logging = options.logging ?? new KafkaLogging(options.brokers, options);
    this.publisher = new KafkaJobBus({ ...options, logging: this.logging });
    this.kafka = this.logging.client(options.clientId ?? "verdict", options.retry);
  }

  publish(topic: string, jobs: Job[]): Promise<void> {
    return this.publisher.publish(topic, jobs);
  }

  async consume(topic: string, handler: (job: DeliveredJob) => Promise<void>, options: ConsumeOptions): Promise<JobConsumer> {
    await this.publisher.ensureTopic(topic);
    const consumer = this.kafka.consumer({ groupId: options.group, sessionTimeout: SESSION_TIMEOUT_MS, heartbeatInterval: HEARTBEAT_INTERVAL_MS });
    this.consumers.add(consumer);
    this.logging.watch(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const window = Math.max(1, options.concurrency ?? 1);
    const attempts = new DeliveryAttempts();
    // After each rebalance: the counts of partitions now another member's would never be cleared.
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => attempts.keepOnly(payload.memberAssignment[topic] ?? []));
    await consumer.run({
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: Math.min(window, 8),
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }) => {
        const deliver = async (message: KafkaMessage) => {
          const attempt = attempts.next(batch.partition, message.offset);
          const value = decodeMessage(message.value);
          this.#running += 1;
          try {
            await this.handled(topic, handler, { topic, key: message.key?.toString("utf8") ?? "", value, attempt });
          } finally {
            this.#running -= 1;
          }
          attempts.succeeded(batch.partition, message.offset);
        };
        // kafkajs heartbeats only between batches or when told to, and a replay may run for its
        // whole budget (120 s by default), far past the session timeout: unless the batch
        // heartbeats on its own clock while jobs run, the coordinator evicts this member and its
        // running job is delivered again (the agent called twice). A heartbeat refused here (a
        // rebalance) is not lost: the next one awaited after a job, or kafkajs after the batch,
        // reports it.
        const beating = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_INTERVAL_MS);
        try {
          await inWindow(batch.messages, window, deliver, {
            resolved: async (message) => {
              resolveOffset(message.offset);
              await heartbeat();
            },
            keepGoing: () => isRunning() && !isStale(),
          });
        } catch (error) {
          // The worker stops: the jobs that finished are committed below, the ones left are not.
          if (!(error instanceof WorkerStopping)) throw error;
        } finally {
          clearInterval(beating);
        }
        await commitOffsetsIfNecessary();
      },
    });
    return {
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  /**
   * Runs a job's handler, reported condensed (a database outage is one line, not one per
   * partition per retry with a stack); a failure is still thrown, so the job is delivered again.
   * A job left because the worker stops is no failure to report, and is thrown on unacknowledged.
   */
  private async handled(topic: string, handler: (job: DeliveredJob) => Promise<void>, job: DeliveredJob): Promise<void> {
    let left: WorkerStopping | null = null;
    await this.logging.handled(topic, async () => {
      try {
        await handler(job);
      } catch (error) {
        if (!(error instanceof WorkerStopping)) throw error;
        left = error;
      }
    });
    if (left) throw left;
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((consumer) => consumer.disconnect()));
    this.consumers.clear();
    await this.publisher.close();
  }
}

/**
 * Runs `work` over `items` with at most `window` at once, in order of start; `resolved` is told
 * of each item once it and every item before it finished. The first failure (of a job, or of
 * `resolved`: a heartbeat refused in a rebalance) stops new starts, waits for the ones running,
 * then is thrown (the unresolved rest is delivered again). Returning while jobs still ran let
 * the batch end and the partition move to another worker, which started the same jobs again:
 * the agent was called twice or three times for one pair.
 */
export async function inWindow<T>(
  items: readonly T[],
  window: number,
  work: (item: T) => Promise<void>,
  hooks: { resolved: (item: T) => Promise<void>; keepGoing: () => boolean },
): Promise<void> {
  const done = new Array<boolean>(items.length).fill(false);
  let next = 0;
  let resolvedUpTo = 0;
  let failure: { error: unknown } | null = null;
  let resolving = Promise.resolve();
  const lane = async () => {
    while (!failure && next < items.length && hooks.keepGoing()) {
      const i = next++;
      try {
        await work(items[i]);
      } catch (error) {
        failure ??= { error };
        return;
      }
      done[i] = true;
      // Serialized: offsets are resolved in order, each once. A failure there is this lane's
      // failure too (the chain stays rejected, so every lane stops after its job).
      resolving = resolving.then(async () => {
        while (resolvedUpTo < items.length && done[resolvedUpTo]) await hooks.resolved(items[resolvedUpTo++]);
      });
      try {
        await resolving;
      } catch (error) {
        failure ??= { error };
        return;
      }
    }
  };
  // Lanes never throw: each records its failure and ends, so this waits for every running job.
  await Promise.all(Array.from({ length: Math.min(window, items.length) }, lane));
  await resolving.catch((error: unknown) => void (failure ??= { error }));
  if (failure) throw (failure as { error: unknown }).error;
}
