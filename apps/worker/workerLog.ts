// Where the worker says what it did: stderr lines by default, silent in tests.
export interface WorkerLog {
  info(message: string): void;
  error(message: string): void;
}

export const consoleLog: WorkerLog = {
  info: (message) => console.error(`[worker] ${message}`),
  error: (message) => console.error(`[worker] error: ${message}`),
};

export const silentLog: WorkerLog = { info: () => undefined, error: () => undefined };
