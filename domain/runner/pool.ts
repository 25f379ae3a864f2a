// Runs async tasks with at most `limit` in flight, keeping each answer at its task's index so
// the caller's order (scenario x model) survives whatever order they finish in.

export async function inOrder<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  if (limit <= 1) {
    for (let i = 0; i < count; i += 1) out[i] = await task(i);
    return out;
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next;
      next += 1;
      out[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return out;
}
