// How deeply a request's JSON nests. JSON.parse takes any depth, but what reads the value after it
// (JSON.stringify, zod, the domain's canonical JSON) recurses: a 10 KB body of 5,000 nested arrays
// overflowed the stack there. No input of ours nests anywhere near the limit.
export const MAX_JSON_DEPTH = 64;

/** The path to the first value nested deeper than `max` (objects and arrays), or null. Iterative. */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH, root = ""): string | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: root }];
  while (stack.length) {
    const { value: current, depth, path } = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= max) return path || "(the body)";
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], depth: depth + 1, path: `${path}[${i}]` });
    } else {
      for (const [key, inner] of Object.entries(current as Record<string, unknown>)) {
        stack.push({ value: inner, depth: depth + 1, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return null;
}

export function depthMessage(path: string, max = MAX_JSON_DEPTH): string {
  return `${path}: JSON is nested more than ${max} levels deep; at most ${max} are accepted`;
}
