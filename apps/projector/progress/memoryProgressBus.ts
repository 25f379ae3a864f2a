// Progress in one process (embedded mode): listeners are called as soon as the projector
// publishes, which it does only after its batch committed.
import type { ProgressBus, ProgressListener, RunProgress } from "./progress.js";

export function createMemoryProgressBus(): ProgressBus {
  const listeners = new Map<string, Set<ProgressListener>>();
  return {
    async publish(progress: RunProgress) {
      for (const listener of [...(listeners.get(progress.run_id) ?? [])]) {
        try {
          listener(progress);
        } catch {
          // A listener's failure is its own; the others and the projector carry on.
        }
      }
    },
    async subscribe(runId: string, listener: ProgressListener) {
      const set = listeners.get(runId) ?? new Set();
      set.add(listener);
      listeners.set(runId, set);
      return async () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(runId);
      };
    },
    async close() {
      listeners.clear();
    },
  };
}
