// One replay through the agent's runtime, bounded by a per-replay budget. Whatever happens —
// a throw, a hang past the budget, a value that is not a replay — the outcome is a Replay the
// run records (a failed one for a run_error), never an exception that would fail the run.
import { Replay, ReplayTimeoutError, type AgentRuntime, type EventData, type RuntimeScenario } from "@verdict/domain";

type ScenarioSnapshot = EventData<"RunStarted">["scenarios"][number];
type ModelSnapshot = EventData<"RunStarted">["models"][number];

export function runtimeScenario(snapshot: ScenarioSnapshot): RuntimeScenario {
  const expectations: NonNullable<RuntimeScenario["expectations"]> = {};
  if (snapshot.expected_tools.length) expectations.tools = [...snapshot.expected_tools];
  if (snapshot.expected_patterns.length) expectations.contains = [...snapshot.expected_patterns];
  if (snapshot.forbidden_patterns.length) expectations.not_contains = [...snapshot.forbidden_patterns];
  return { key: snapshot.key, prompt: snapshot.prompt, group: snapshot.group ?? null, notes: snapshot.notes ?? null, expectations };
}

export async function replayThroughRuntime(
  runtime: AgentRuntime,
  scenario: ScenarioSnapshot,
  model: ModelSnapshot,
  timeoutMs: number,
): Promise<Replay> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // A runtime that ignores its signal still loses the race against the budget.
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ReplayTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  let value: unknown;
  try {
    value = await Promise.race([runtime.replay(runtimeScenario(scenario), { ...model }, { signal: controller.signal }), expired]);
  } catch (error) {
    return Replay.failed(error);
  } finally {
    clearTimeout(timer);
  }
  if (value === null || value === undefined) return Replay.failed("replay returned nothing");
  try {
    return Replay.from(value);
  } catch (error) {
    return Replay.failed(error);
  }
}
