// A replay that hangs must not hang the run: past its budget it becomes a run_error.

export class ReplayTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`replay did not finish within ${ms} ms`);
    this.name = "ReplayTimeoutError";
  }
}

/**
 * `work` resolved, or a ReplayTimeoutError after `ms` (no limit when ms is null/undefined).
 * `controller`, when given, is aborted with that error, so the work can stop too.
 */
export function withTimeout<T>(work: Promise<T>, ms: number | null | undefined, controller?: AbortController): Promise<T> {
  if (ms == null) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ReplayTimeoutError(ms);
      controller?.abort(error);
      reject(error);
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
