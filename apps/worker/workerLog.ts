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

/** What a worker says of its price table (VERDICT_PRICES): applied, or checked and not used by a process that does not replay. */
export function pricesLine(path: string, models: number, replays: boolean): string {
  const count = `${models} model${models === 1 ? "" : "s"}`;
  return replays
    ? `prices ${path} (${count}): a replay reporting no cost is recorded with its estimated cost (from its tokens; a count it does not give, from characters ÷ 4: a lower bound)`
    : `prices ${path} (${count}) checked, not used: this process does not replay (the --replay role prices replays)`;
}
