// Where the dispatcher keeps its place in the log, outside the domain log (a checkpoint is not
// a domain fact). The position and the dispatcher's per-run counts are saved together, so a
// restart resumes with counts that match exactly the events before the position.
// `acquire` is leadership: only the process holding a dispatcher's name dispatches, others wait.
import type { LogPosition } from "@verdict/domain";

export interface Checkpoint {
  /** The last event handled; null before the first. */
  position: LogPosition | null;
  /** The dispatcher's own snapshot (JSON), saved with the position it belongs to. */
  state: Record<string, unknown>;
}

export interface CheckpointStore {
  load(name: string): Promise<Checkpoint | null>;
  save(name: string, checkpoint: Checkpoint): Promise<void>;
  /**
   * True when this process now leads `name`, and keeps leading it until `release`, exit, or a loss
   * it did not ask for (the PostgreSQL session holding the lock ended): `onLost` is then called
   * once, the lease is already gone, and `acquire` may be tried again.
   */
  acquire(name: string, onLost?: (error: Error) => void): Promise<boolean>;
  release(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Positions hold bigints; stored as decimal strings. */
export function positionToJson(position: LogPosition | null): { commit: string; prepare: string } | null {
  return position ? { commit: position.commit.toString(), prepare: position.prepare.toString() } : null;
}

export function positionFromJson(value: unknown): LogPosition | null {
  if (!value || typeof value !== "object") return null;
  const { commit, prepare } = value as { commit?: unknown; prepare?: unknown };
  if (typeof commit !== "string" || typeof prepare !== "string") return null;
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}

/** One process: checkpoints in a map, leadership granted to the first taker and never lost (`onLost` is unused). */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly saved = new Map<string, string>();
  private readonly leaders = new Set<string>();
  saves = 0;

  async load(name: string): Promise<Checkpoint | null> {
    const text = this.saved.get(name);
    if (text === undefined) return null;
    const json = JSON.parse(text) as { position: unknown; state: Record<string, unknown> };
    return { position: positionFromJson(json.position), state: json.state };
  }

  async save(name: string, checkpoint: Checkpoint): Promise<void> {
    this.saves += 1;
    this.saved.set(name, JSON.stringify({ position: positionToJson(checkpoint.position), state: checkpoint.state }));
  }

  async acquire(name: string): Promise<boolean> {
    if (this.leaders.has(name)) return false;
    this.leaders.add(name);
    return true;
  }

  async release(name: string): Promise<void> {
    this.leaders.delete(name);
  }

  async close(): Promise<void> {
    this.leaders.clear();
  }
}
