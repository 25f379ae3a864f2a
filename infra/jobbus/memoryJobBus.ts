// In-process JobBus for the embedded default and unit tests. Each topic keeps its log; each
// consumer group keeps a cursor into it, so a group that starts late still sees the jobs (as a
// Kafka group reading from the earliest offset would). A handler that throws gets the job again
// after a short backoff, like an uncommitted Kafka offset.
//
// Retention: the jobs every group of the topic has taken are dropped, as Kafka's retention drops
// old segments. Kept for ever, they grew a long-lived embedded process by ~3 MB every 3,000-pair
// run. Jobs published before any group consumes the topic are kept until one does; a group that
// starts later begins at the oldest job still kept.
import type { ConsumeOptions, DeliveredJob, Job, JobBus, JobConsumer } from "@verdict/domain";

/** Taken jobs are dropped in runs of at least this many (splicing the array's front is O(n)). */
const TRIM_AT_LEAST = 1024;

/** A topic's jobs from offset `base` on; offsets count every job ever published to it. */
interface TopicLog {
  base: number;
  jobs: Job[];
}

interface Group {
  topic: string;
  /** The offset of the next job this group takes. */
  cursor: number;
  retries: DeliveredJob[];
  /** Wakes every idle lane of every consumer in the group. */
  sleepers: Array<() => void>;
}

const RETRY_DELAY_MS = 50;

export class MemoryJobBus implements JobBus {
  private readonly logs = new Map<string, TopicLog>();
  private readonly groups = new Map<string, Group>();
  private closed = false;

  async publish(topic: string, jobs: Job[]): Promise<void> {
    if (this.closed) throw new Error("MemoryJobBus is closed");
    const log = this.logFor(topic);
    for (const job of jobs) log.jobs.push({ key: job.key, value: structuredClone(job.value) });
    for (const [name, group] of this.groups) if (name.startsWith(`${topic}\u0000`)) wake(group);
  }

  async consume(topic: string, handler: (job: DeliveredJob) => Promise<void>, options: ConsumeOptions): Promise<JobConsumer> {
    const group = this.groupFor(topic, options.group);
    const log = this.logFor(topic);
    const concurrency = Math.max(1, options.concurrency ?? 1);
    let stopped = false;

    const next = (): DeliveredJob | null => {
      const retry = group.retries.shift();
      if (retry) return { ...retry, attempt: retry.attempt + 1 };
      if (group.cursor >= log.base + log.jobs.length) return null;
      const job = log.jobs[group.cursor - log.base];
      group.cursor += 1;
      // The slowest group bounds what may go, so only a group this far ahead looks at the others.
      if (group.cursor - log.base >= TRIM_AT_LEAST) this.trim(topic, log);
      return { topic, key: job.key, value: structuredClone(job.value), attempt: 1 };
    };

    const lane = async (): Promise<void> => {
      while (!stopped) {
        const job = next();
        if (!job) {
          await new Promise<void>((resolve) => group.sleepers.push(resolve));
          continue;
        }
        try {
          await handler(job);
        } catch {
          // Not acknowledged: deliver again after a pause, as Kafka would after a restart.
          setTimeout(() => {
            group.retries.push(job);
            wake(group);
          }, RETRY_DELAY_MS);
        }
      }
    };
    const lanes = Array.from({ length: concurrency }, () => lane());
    return {
      stop: async () => {
        stopped = true;
        wake(group);
        await Promise.all(lanes);
      },
    };
  }

  /** How many of the topic's jobs are kept now (not yet taken by every group). */
  retained(topic: string): number {
    return this.logs.get(topic)?.jobs.length ?? 0;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private logFor(topic: string): TopicLog {
    let log = this.logs.get(topic);
    if (!log) this.logs.set(topic, (log = { base: 0, jobs: [] }));
    return log;
  }

  private groupFor(topic: string, name: string): Group {
    const id = `${topic}\u0000${name}`;
    let group = this.groups.get(id);
    if (!group) this.groups.set(id, (group = { topic, cursor: this.logFor(topic).base, retries: [], sleepers: [] }));
    return group;
  }

  /** Drops the jobs every group of the topic has taken (a job being handled is held by its lane). */
  private trim(topic: string, log: TopicLog): void {
    let taken = Infinity;
    for (const group of this.groups.values()) if (group.topic === topic) taken = Math.min(taken, group.cursor);
    const drop = taken - log.base;
    if (drop < TRIM_AT_LEAST) return;
    log.jobs.splice(0, drop);
    log.base = taken;
  }
}

function wake(group: Group): void {
  for (const resume of group.sleepers.splice(0)) resume();
}
