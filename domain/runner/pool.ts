// Runs async tasks with at most `limit` in flight, keeping each answer at its task's index so
// the caller's order (scenario x model) survives whatever order they finish in.

export async function inOrder<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  if (limit <= 1) {
    for (let i = 0; i < count; i += 1) out[i] = await task(i);
    return out;
  }
  let next = 0;
  let failed = false;
  // Once a task has thrown, run() has failed: no worker starts another (a replay, a row saved).
  const worker = async (): Promise<void> => {
    while (!failed && next < count) {
      const index = next;
      next += 1;
      try {
        out[index] = await task(index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return out;
}
