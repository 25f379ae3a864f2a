// A replay that hangs must not hang the run: past its budget it becomes a run_error.

export class ReplayTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`replay did not finish within ${ms} ms`);
    this.name = "ReplayTimeoutError";
  }
}

/** `work` resolved, or a ReplayTimeoutError after `ms` (no limit when ms is null/undefined). */
export function withTimeout<T>(work: Promise<T>, ms: number | null | undefined): Promise<T> {
  if (ms == null) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReplayTimeoutError(ms)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
