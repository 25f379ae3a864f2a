// Progress is published after a batch commits, and only then: a projector that died between the
// commit and its NOTIFY, or a publish that failed, lost that update, and when it was a run's last
// (COMPLETED) a subscriber waited for ever while the `run` query said the run had ended; the
// restarted projector resumed past it. So the projector announces again what may have been lost:
// when it starts, the progress of every running run and of the runs that ended last; after a
// failed publish, that run's current progress, a retry delay later, until it goes through. A
// subscriber may hear a state twice; it never misses the last one.
import type { Sql } from "../db/sql.js";
import type { ProgressBus, RunProgress } from "./progress.js";

/** Runs announced again on start: the running ones and the last ended (bounded, one query). */
const MOST_RUNNING_ANNOUNCED = 1000;
const RECENTLY_ENDED_ANNOUNCED = 50;

const RUNS_TO_ANNOUNCE_SQL = `SELECT id FROM (SELECT id FROM runs WHERE status = 'RUNNING' ORDER BY updated_at DESC NULLS LAST LIMIT ${MOST_RUNNING_ANNOUNCED}) AS running
  UNION SELECT id FROM (SELECT id FROM runs WHERE status IN ('COMPLETED', 'FAILED') ORDER BY completed_at DESC NULLS LAST LIMIT ${RECENTLY_ENDED_ANNOUNCED}) AS ended`;

export async function runsToAnnounce(sql: Sql): Promise<string[]> {
  return (await sql.execute<{ id: string }>(RUNS_TO_ANNOUNCE_SQL)).map((row) => row.id).sort();
}

interface AnnouncerOptions {
  bus: ProgressBus;
  /** The runs' current progress, from the read models. */
  read: (runIds: string[]) => Promise<RunProgress[]>;
  onPublishError?: (error: unknown) => void;
  retryMs: number;
}

interface Announcer {
  /** Publishes each run's progress; a failed one is announced again later. */
  publish(progress: RunProgress[]): Promise<void>;
  /** Publishes the runs' current progress. */
  announce(runIds: string[]): Promise<void>;
  /** No more retries until `resume` (the projector stopped; its bus may close). */
  stop(): void;
  resume(): void;
}

export function createAnnouncer(options: AnnouncerOptions): Announcer {
  const unannounced = new Set<string>();
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;

  async function publish(progress: RunProgress[]): Promise<void> {
    for (const p of progress) {
      try {
        await options.bus.publish(p);
        unannounced.delete(p.run_id); // its latest state is out: an older failure no longer matters
      } catch (error) {
        unannounced.add(p.run_id);
        options.onPublishError?.(error);
      }
    }
    schedule();
  }

  function schedule(): void {
    if (unannounced.size === 0 || retry || stopped) return;
    retry = setTimeout(() => {
      retry = null;
      // The read models unreachable: tried again later, as a failed publish is.
      void announce([...unannounced]).catch((error: unknown) => {
        options.onPublishError?.(error);
        schedule();
      });
    }, options.retryMs);
    retry.unref();
  }

  async function announce(runIds: string[]): Promise<void> {
    if (runIds.length > 0) await publish(await options.read(runIds));
  }

  return {
    publish,
    announce,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
    },
    resume() {
      stopped = false;
      schedule();
    },
  };
}
