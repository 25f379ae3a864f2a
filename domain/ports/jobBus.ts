// The JobBus port: how the dispatcher hands replay and completion jobs to workers.
// Adapters: `kafka` (kafkajs, a consumer group per role) and `memory` (embedded mode, tests).
// Delivery is at least once: a job is acknowledged only after its handler resolves, so a
// handler that throws (or a worker that dies) sees the job again. Handlers must be idempotent.

export interface Job {
  /** Partitioning key: jobs with one key are delivered in publish order (Kafka: the run id). */
  key: string;
  /** JSON-serialisable payload; consumers validate it with zod. */
  value: unknown;
}

export interface DeliveredJob extends Job {
  topic: string;
  /** How many times this job was handed to a handler in this process (1 on first delivery). */
  attempt: number;
}

export interface ConsumeOptions {
  /** Consumer group: each group sees each job once (and again after a failure). */
  group: string;
  /** Jobs processed at once by this consumer. */
  concurrency?: number;
}

export interface JobConsumer {
  /** Stops taking jobs; resolves once in-flight handlers settled. */
  stop(): Promise<void>;
}

export interface JobBus {
  publish(topic: string, jobs: Job[]): Promise<void>;
  consume(topic: string, handler: (job: DeliveredJob) => Promise<void>, options: ConsumeOptions): Promise<JobConsumer>;
  close(): Promise<void>;
}
