// An agent the host runs itself behind HTTP: Verdict POSTs `{ scenario, model }` as JSON and
// expects the replay's JSON back. Each attempt is bounded by a timeout; a 5xx or a network
// failure is retried with exponential backoff; a 4xx or a body that is not a replay is final.
import { abortableDelay } from "./abortableDelay.js";
import type { AgentRuntime, ReplayData, RuntimeModel, RuntimeScenario } from "@verdict/domain";
import { describeIssue, replayDataSchema } from "./replayData.js";

export interface HttpAgentOptions {
  url: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Extra attempts after the first, for 5xx and network errors. */
  retries?: number;
  backoffMs?: number;
  /** Sent as-is (e.g. an authorization header); never recorded anywhere. */
  headers?: Record<string, string>;
}

export class HttpAgentError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "HttpAgentError";
  }
}

export class HttpAgent implements AgentRuntime {
  readonly name: string;

  constructor(private readonly options: HttpAgentOptions) {
    const url = new URL(options.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`agent url must be http(s): ${options.url}`);
    this.name = `http:${url.origin}${url.pathname}`;
  }

  async replay(scenario: RuntimeScenario, model: RuntimeModel, { signal }: { signal: AbortSignal }): Promise<ReplayData> {
    const retries = this.options.retries ?? 2;
    let lastError: Error = new Error("no attempt made");
    for (let attempt = 0; attempt <= retries; attempt += 1) {
      if (attempt > 0) await abortableDelay((this.options.backoffMs ?? 200) * 2 ** (attempt - 1), signal);
      try {
        return await this.attempt(scenario, model, signal);
      } catch (error) {
        lastError = error as Error;
        if (signal.aborted || (error instanceof HttpAgentError && !error.retryable)) throw error;
      }
    }
    throw lastError;
  }

  private async attempt(scenario: RuntimeScenario, model: RuntimeModel, outer: AbortSignal): Promise<ReplayData> {
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const signal = AbortSignal.any([outer, AbortSignal.timeout(timeoutMs)]);
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...this.options.headers },
        body: JSON.stringify({ scenario, model }),
        signal,
      });
    } catch (error) {
      const timedOut = !outer.aborted && (error as Error).name === "TimeoutError";
      throw new HttpAgentError(timedOut ? `agent did not answer within ${timeoutMs} ms` : `agent unreachable: ${(error as Error).message}`, true);
    }
    if (response.status >= 500) throw new HttpAgentError(`agent answered HTTP ${response.status}`, true);
    if (!response.ok) throw new HttpAgentError(`agent answered HTTP ${response.status}`, false);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new HttpAgentError("agent answered a body that is not JSON", false);
    }
    const parsed = replayDataSchema.safeParse(body);
    if (!parsed.success) throw new HttpAgentError(`agent answered an invalid replay: ${describeIssue(parsed.error)}`, false);
    return parsed.data;
  }
}
