// How the dispatcher's jobs reach the bus: a run's replay jobs, in chunks, keyed by run (or by
// pair), and its completion job. It counts the publishes the bus took: the evidence the
// watchdog's rounds (redrives.ts) and a refused start's tries (startRetries.ts) read that the bus
// itself is up when it refuses one run's jobs.
import type { Job, JobBus } from "@verdict/domain";
import { CompletionJob, ReplayJob, type JobNames } from "./jobs.js";
import type { TrackedRun } from "./trackedRun.js";

const PUBLISH_CHUNK = 500;

export class JobPublisher {
  private took = 0;

  constructor(
    private readonly bus: JobBus,
    private readonly names: JobNames,
    /** Partition key of replay jobs: the run (DESIGN.md) or the pair (spreads one run over partitions). */
    private readonly replayKey: "run" | "pair" = "run",
  ) {}

  /** Publishes the bus took so far. */
  get accepted(): number {
    return this.took;
  }

  /**
   * The replay jobs of these pairs of the run, in chunks; `took` counts the chunks the bus took,
   * so a caller whose publish failed part way can tell its own from other jobs (startRetries.ts).
   */
  async replays(runId: string, run: TrackedRun, pairs: readonly number[], took?: { chunks: number }): Promise<void> {
    const jobs = pairs.map((n) => this.replayJob(runId, run, n));
    for (let i = 0; i < jobs.length; i += PUBLISH_CHUNK) {
      await this.publish(this.names.replayTopic, jobs.slice(i, i + PUBLISH_CHUNK));
      if (took) took.chunks += 1;
    }
  }

  async completion(runId: string, tenant: string): Promise<void> {
    const value: CompletionJob = CompletionJob.parse({ run_id: runId, tenant });
    await this.publish(this.names.completeTopic, [{ key: runId, value }]);
  }

  private replayJob(runId: string, run: TrackedRun, n: number): Job {
    const m = run.models.length;
    const value: ReplayJob = ReplayJob.parse({ run_id: runId, tenant: run.tenant, n, scenario_key: run.scenarios[Math.floor(n / m)], model_label: run.models[n % m] });
    return { key: this.replayKey === "pair" ? `${runId}.${n}` : runId, value };
  }

  private async publish(topic: string, jobs: Job[]): Promise<void> {
    await this.bus.publish(topic, jobs);
    this.took += 1;
  }
}
