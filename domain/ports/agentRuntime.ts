// The AgentRuntime port: how the platform gets one replay of one scenario on one model.
// Adapters live in infra/agents (`scripted`, `module`, `chat`, `http`).
// A runtime returns the replay's fields as plain data (snake_case, as the guide's Replay JSON);
// the worker turns it into a Replay and records it. Throwing is allowed: the worker records the
// error as a run_error replay, never as a failed run.

/** The scenario as the runtime sees it (snapshot fields, snake_case like events). */
export interface RuntimeScenario {
  key: string;
  prompt: string;
  group?: string | null;
  notes?: string | null;
  expectations?: { tools?: string[]; contains?: string[]; not_contains?: string[] };
}

export interface RuntimeModel {
  label: string;
  provider: string;
  model: string;
}

export interface ReplayData {
  answer?: string | null;
  tool_calls?: Array<Record<string, unknown>>;
  duration_ms?: number | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  cost?: number | null;
  error?: string | null;
  metadata?: Record<string, unknown>;
}

export interface AgentRuntime {
  /** Human-readable name recorded with the run (e.g. "scripted:examples/support-agent.yaml"). */
  readonly name: string;
  replay(scenario: RuntimeScenario, model: RuntimeModel, options: { signal: AbortSignal }): Promise<ReplayData>;
}
