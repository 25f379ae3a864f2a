// SIGINT/SIGTERM for `verdict start`, from the first moment: the embedded databases must be
// closed, never killed mid-write, so no signal ends the process outright. The first stops the
// start; the second (the terminal signals the whole process group, and the re-running parent
// forwards it too, so a user's second Ctrl-C) hurries it: the worker's drain, which waits for
// jobs in flight (a replay up to 120 s, each judge call as long), is given up (workerDrain.ts),
// while the databases are still closed. Before, a second Ctrl-C did nothing until the drain ended.

/** What signals arrive at: the process, or a stand-in in tests. */
export type SignalTarget = Pick<NodeJS.Process, "on" | "off">;

interface StopSignals {
  /** The first signal's name. */
  readonly stopped: Promise<string>;
  /** The second signal's name: stop waiting for jobs in flight. */
  readonly hurried: Promise<string>;
  /** Whether the second signal came. */
  isHurried(): boolean;
  dispose(): void;
}

export function stopSignals(target: SignalTarget = process): StopSignals {
  const first = deferred();
  const second = deferred();
  let count = 0;
  // Handlers stay installed until disposed: a third signal is ignored too, never the default exit.
  const handler = (signal: NodeJS.Signals) => {
    count += 1;
    if (count === 1) first.resolve(signal);
    else if (count === 2) second.resolve(signal);
  };
  target.on("SIGINT", handler);
  target.on("SIGTERM", handler);
  return {
    stopped: first.promise,
    hurried: second.promise,
    isHurried: () => count >= 2,
    dispose() {
      target.off("SIGINT", handler);
      target.off("SIGTERM", handler);
    },
  };
}

function deferred(): { promise: Promise<string>; resolve: (value: string) => void } {
  let resolve: (value: string) => void = () => undefined;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
}
