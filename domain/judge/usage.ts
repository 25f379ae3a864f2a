// What one judge call used, as the host's completion function reported it. Hosts on the
// AI SDK hand `{ inputTokens, outputTokens }`; stored usage keeps snake_case keys.

export interface JudgeCallUsage {
  input_tokens?: number;
  output_tokens?: number;
  cost?: number;
  model?: string;
  source?: string;
}

/** The usable parts of a reported usage, or null when nothing usable was reported. */
export function judgeCallUsage(usage: Record<string, unknown> | null | undefined): JudgeCallUsage | null {
  if (usage === null || typeof usage !== "object") return null;
  const amount = (...keys: string[]): number | undefined => {
    for (const key of keys) {
      const value = usage[key];
      if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
    }
    return undefined;
  };
  const count = (...keys: string[]): number | undefined => {
    const value = amount(...keys);
    return value === undefined ? undefined : Math.trunc(value);
  };
  const text = (key: string): string | undefined => {
    const value = usage[key];
    return typeof value === "string" && value.trim() !== "" ? value : undefined;
  };
  const out: JudgeCallUsage = {};
  const fields: [keyof JudgeCallUsage, number | string | undefined][] = [
    ["input_tokens", count("input_tokens", "inputTokens")],
    ["output_tokens", count("output_tokens", "outputTokens")],
    ["cost", amount("cost")],
    ["model", text("model")],
    ["source", text("source")],
  ];
  for (const [key, value] of fields) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return Object.keys(out).length ? out : null;
}
