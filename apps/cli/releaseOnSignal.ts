// SIGINT/SIGTERM for a command that holds an embedded home (report, catalogs, evals): node's
// default ended it at once, leaving VERDICT_HOME/verdict.pid behind and the database unclosed. A
// lock whose pid is another container's is never taken over, so a CI job cancelled on a shared
// home blocked every later one. Now the signal closes what the command opened (the database, then
// the lock) and exits 128+n, the code a shell gives a process the signal ended. `verdict start`
// has its own (stopSignals.ts); `verdict run` holds no home, and a signal ends it at once.
import { constants } from "node:os";
import type { SignalTarget } from "./stopSignals.js";

/** What is closed on a signal: the command's Resources. */
interface Closable {
  close(): Promise<void>;
}

/**
 * Installs the handlers; answers their removal. A second signal, once the first has removed
 * them, ends the process at once: a close that hangs can still be cut short.
 */
export function releaseOnSignal(resources: Closable, target: SignalTarget = process, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const handler = (signal: NodeJS.Signals) => {
    dispose();
    void resources.close().finally(() => exit(128 + constants.signals[signal]));
  };
  const dispose = () => {
    target.off("SIGINT", handler);
    target.off("SIGTERM", handler);
  };
  target.on("SIGINT", handler);
  target.on("SIGTERM", handler);
  return dispose;
}
