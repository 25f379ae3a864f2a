// Where the worker says what it did: stderr lines by default, silent in tests.
export interface WorkerLog {
  info(message: string): void;
  error(message: string): void;
  /** Detail for diagnosis (stack traces, every kafkajs line): shown only with VERDICT_LOG_DEBUG=1. */
  debug?(message: string): void;
}

export const consoleLog: WorkerLog = {
  info: (message) => console.error(`[worker] ${message}`),
  error: (message) => console.error(`[worker] error: ${message}`),
  debug: (message) => {
    if (process.env.VERDICT_LOG_DEBUG === "1") console.error(`[worker] debug: ${message}`);
  },
};

export const silentLog: WorkerLog = { info: () => undefined, error: () => undefined };

/** The line a worker starts with: its agent and judge by name (an http agent's shows its origin only). */
export function startupLine(runtime: { name: string } | null, judge: { name: string } | null, pid: number): string {
  return `agent ${runtime?.name ?? "(none: not replaying)"}, judge ${judge?.name ?? "none (rules only)"}, pid ${pid}`;
}
