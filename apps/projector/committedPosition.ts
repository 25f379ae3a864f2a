// What a projector has committed, and the callers waiting for it to reach a log position
// (read-your-writes for the API, pacing for a worker in the same process).
import type { LogPosition } from "@verdict/domain";
import { comparePositions } from "@verdict/infra/eventstore";

export class CommittedPosition {
  /** The last position committed (or found stored), without asking the database. */
  position: LogPosition | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly name: string) {}

  /** Every waiter checks the position again (after a commit, or a rebuild that moved it). */
  wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /**
   * Resolves once the position reaches `position`, or rejects after `timeoutMs`. With
   * `readStored`, the stored checkpoint is read once too, for what another process committed.
   */
  waitFor(position: LogPosition, timeoutMs: number, readStored: (() => Promise<LogPosition | null>) | null): Promise<void> {
    if (this.reached(position)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.reached(position)) {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`projector ${this.name} did not reach log position ${position.commit}/${position.prepare} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      if (!readStored) return;
      void readStored().then((stored) => {
        if (stored && (!this.position || comparePositions(stored, this.position) > 0)) this.position = stored;
        check();
      }, reject);
    });
  }

  private reached(position: LogPosition): boolean {
    return this.position !== null && comparePositions(this.position, position) >= 0;
  }
}
