// In-process JobBus for the embedded default and unit tests. Each topic keeps its log; each
// consumer group keeps a cursor into it, so a group that starts late still sees every job (as
// a Kafka group reading from the beginning would). A handler that throws gets the job again
// after a short backoff, like an uncommitted Kafka offset.
import type { ConsumeOptions, DeliveredJob, Job, JobBus, JobConsumer } from "@verdict/domain";

interface Group {
  cursor: number;
  retries: DeliveredJob[];
  /** Wakes every idle lane of every consumer in the group. */
  sleepers: Array<() => void>;
}

const RETRY_DELAY_MS = 50;

export class MemoryJobBus implements JobBus {
  private readonly logs = new Map<string, Job[]>();
  private readonly groups = new Map<string, Group>();
  private closed = false;

  async publish(topic: string, jobs: Job[]): Promise<void> {
    if (this.closed) throw new Error("MemoryJobBus is closed");
    const log = this.logFor(topic);
    for (const job of jobs) log.push({ key: job.key, value: structuredClone(job.value) });
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
      if (group.cursor >= log.length) return null;
      const job = log[group.cursor];
      group.cursor += 1;
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

  async close(): Promise<void> {
    this.closed = true;
  }

  private logFor(topic: string): Job[] {
    let log = this.logs.get(topic);
    if (!log) this.logs.set(topic, (log = []));
    return log;
  }

  private groupFor(topic: string, name: string): Group {
    const id = `${topic}\u0000${name}`;
    let group = this.groups.get(id);
    if (!group) this.groups.set(id, (group = { cursor: 0, retries: [], sleepers: [] }));
    return group;
  }
}

function wake(group: Group): void {
  for (const resume of group.sleepers.splice(0)) resume();
}
