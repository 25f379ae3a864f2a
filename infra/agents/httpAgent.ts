// An agent the host runs itself behind HTTP: Verdict POSTs `{ scenario, model }` as JSON and
// expects the replay's JSON back. Only a request the agent surely did not act on is sent again,
// with exponential backoff: a 5xx (issue #6: "retries on 5xx"), or a connection that failed
// before the request went out (refused, unreachable, a DNS failure). A replay may call tools with
// side effects (refund_order), so a timeout, a connection lost after sending, a body that broke
// off, a 4xx, a redirect (never followed: it would take the agent's headers to another host) or
// a body that is not a replay is final. Each attempt is bounded by the caller's signal (the
// worker's and the CLI's per-replay budget, so a slow agent gets all of it) and, with
// `timeoutMs`, by a timeout of its own. The body is read up to `maxBodyBytes` (4 MB by default),
// and a body that stops arriving is a timeout like a missing answer. A URL's user and password
// (`http://user:pass@host/replay`) are sent as basic auth and appear in no name or error: fetch
// refuses such a URL with a message that quotes it, and that message became the replay's error,
// recorded in the run's events and its report. Names and errors show the origin alone: a path
// may carry a token too (`/hooks/<token>/replay`), and the worker logs its agent's name at start.
// An agent that echoes a credential it was sent (the basic credential, a header value, a token in
// the query or a long path segment: sentSecrets) has it replaced by `[redacted]` in its answer's values
// and keys before the answer is read (redact.ts). An answer without duration_ms gets the
// answering attempt's wall time (timed).
import { abortableDelay } from "./abortableDelay.js";
import { linkSignals, type LinkedSignal } from "../abort/linkedSignal.js";
import { Replay, REPLAY_KEYS, TOOL_CALL_KEYS, type AgentRuntime, type ReplayData, type RuntimeModel, type RuntimeScenario } from "@verdict/domain";
import { redactDeep, secretList } from "./redact.js";
import { timed } from "./timed.js";

export interface HttpAgentOptions {
  url: string;
  /** Per attempt; without it an attempt is bounded only by the caller's signal (the replay budget). */
  timeoutMs?: number;
  /** Extra attempts after the first, for a 5xx or a connection that failed before the request was sent. */
  retries?: number;
  backoffMs?: number;
  /** Sent as-is (e.g. an authorization header); never recorded anywhere. */
  headers?: Record<string, string>;
  /** A body larger than this is refused unread (default 4 MB). */
  maxBodyBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Failures of the connection itself: the request never reached the agent, so sending it again is safe. */
const BEFORE_SENDING = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

function failedBeforeSending(cause: unknown): boolean {
  // With several addresses to try, Node reports an AggregateError whose parts carry the codes.
  const parts = cause instanceof AggregateError ? [cause, ...cause.errors] : [cause];
  return parts.some((part) => BEFORE_SENDING.has(String((part as { code?: unknown } | null)?.code)));
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

/**
 * The answer checked by `Replay.from` itself, so a host may answer whatever a Replay accepts
 * (camelCase or snake_case keys, nulls, tool calls given as names; reference-core §6) and an
 * unknown key or a wrong value is refused, naming the key as the host spelled it.
 */
function replayOf(body: unknown): ReplayData {
  try {
    return Replay.from(body).toJSON();
  } catch (error) {
    throw new HttpAgentError(`agent answered an invalid replay: ${(error as Error).message}`, false);
  }
}

/** The keys an answer is read by: redaction leaves them as they are (redactDeep). */
const ANSWER_KEYS: ReadonlySet<string> = new Set([...REPLAY_KEYS, ...TOOL_CALL_KEYS]);

/** Query parameters that carry a credential by their name (`?api_key=`, `?jwt=`, `?sig=`, `?pw=`). */
const CREDENTIAL_PARAM = /token|secret|passw|pwd|credential|signature|session|apikey|jwt|bearer|hmac|(^|[_-])key$|^(sig|sas|pass|pw|code|access|auth|otp)$|^auth([_-]|orization)/i;

/**
 * The credentials a request carries in its URL besides its password (passwordSecrets): the basic
 * credential made of it, each query value that is a credential by its parameter's name
 * (CREDENTIAL_PARAM) or by its look (a bare `?<token>`, or one unbroken token of 16 characters or
 * more, whatever its name: `?x=eyJhbGciOi…`), and every path segment of 16 characters or more
 * (`/hooks/<token>/replay`, digits or not). Not every value: an ordinary one (`?env=production`,
 * `?region=eu-west-1`) looked for garbled answers that say it ("in [redacted]"), and its word
 * counts in scoring. The user name is not secret.
 */
function sentSecrets(url: URL, credentials: string | null): string[] {
  const secrets: string[] = [];
  if (credentials) secrets.push(credentials, Buffer.from(credentials).toString("base64"));
  // As written and decoded: an agent echoing its raw URL shows `a+b` or `a%2Fb`.
  for (const pair of url.search.slice(1).split("&")) {
    const at = pair.indexOf("=");
    const value = pair.slice(at + 1);
    const plain = decoded(value.replaceAll("+", " "));
    if (at < 0 || CREDENTIAL_PARAM.test(decoded(pair.slice(0, at))) || /^\S{16,}$/.test(plain)) secrets.push(value, plain);
  }
  for (const segment of url.pathname.split("/")) if (segment.length >= 16) secrets.push(segment, decoded(segment));
  return secrets;
}

/**
 * The URL's password, looked for from 4 characters on (secretList's known secrets) unless it is
 * one plain lower-case word: echoed alone it is the credential itself, but a password `order`
 * would turn every tool named `refund_order` into `refund_[redacted]`, so such a word is looked
 * for from the ordinary 8 on (its `user:password` pair, and that pair's base64, always are).
 */
function passwordSecrets(url: URL): { known: string[]; ordinary: string[] } {
  const password = [url.password, decoded(url.password)];
  return /^[a-z]*$/.test(decoded(url.password)) ? { known: [], ordinary: password } : { known: password, ordinary: [] };
}

/** Percent-decoded, or as it is when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A header value, and its credential alone when it has a scheme (`Bearer <token>`). */
function headerSecrets(value: string): string[] {
  const scheme = /^\S+\s+(\S.*)$/.exec(value);
  return scheme ? [value, scheme[1]] : [value];
}

export class HttpAgent implements AgentRuntime {
  readonly name: string;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  /** What this agent is sent that it must not get recorded by echoing it back (redact.ts). */
  readonly #secrets: string[];

  constructor(private readonly options: HttpAgentOptions) {
    const url = new URL(options.url);
    const credentials = url.username || url.password ? `${decoded(url.username)}:${decoded(url.password)}` : null;
    const password = passwordSecrets(url);
    this.#secrets = secretList(
      [...sentSecrets(url, credentials), ...password.ordinary, ...Object.values(options.headers ?? {}).flatMap(headerSecrets)],
      password.known,
    );
    url.username = "";
    url.password = "";
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`agent url must be http(s): ${url.protocol}//${url.host}`);
    this.name = `http:${url.origin}`;
    this.url = url.href;
    this.headers = { "content-type": "application/json", accept: "application/json" };
    if (credentials) this.headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      // Checked here, by name only: fetch's own refusal quotes the value (a token, typically),
      // and at replay time that message would become the replay's recorded error.
      try {
        new Headers([[name, value]]);
      } catch {
        throw new Error(`agent header ${JSON.stringify(name)} is not a valid HTTP header (value not shown)`);
      }
      this.headers[name] = value;
    }
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
    const timeoutMs = this.options.timeoutMs;
    const deadline = linkSignals([outer], timeoutMs);
    const sentAt = performance.now();
    try {
      let response: Response;
      try {
        response = await fetch(this.url, {
          method: "POST",
          headers: this.headers,
          body: JSON.stringify({ scenario, model }),
          signal: deadline.signal,
          // Followed, a redirect would carry the agent's headers to wherever it points.
          redirect: "manual",
        });
      } catch (error) {
        if (outer.aborted) throw outer.reason;
        if (deadline.timedOut()) throw new HttpAgentError(`agent did not answer within ${timeoutMs} ms`, false);
        // fetch says "fetch failed"; its cause says why (connect ECONNREFUSED host:port, a DNS failure...).
        const cause = (error as { cause?: unknown }).cause;
        const why = cause instanceof Error && cause.message ? cause.message : (error as Error).message;
        throw new HttpAgentError(`agent unreachable: ${why}`, failedBeforeSending(cause));
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        if (response.status >= 300 && response.status < 400) {
          throw new HttpAgentError(`agent answered a redirect (HTTP ${response.status}), which is not followed: give the URL of the replay endpoint itself`, false);
        }
        throw new HttpAgentError(`agent answered HTTP ${response.status}`, response.status >= 500);
      }
      const text = await this.bodyText(response, timeoutMs, outer, deadline);
      const wallMs = Math.round(performance.now() - sentAt);
      let body: unknown;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        throw new HttpAgentError("agent answered a body that is not JSON", false);
      }
      // Before anything of it is read: the validation's errors quote the body (an unknown key, a
      // value's start) too.
      // The answering attempt's wall time, from sending the request to the body's last byte: the
      // earlier attempts' 5xx and the backoff waits are not the agent's latency.
      return timed(replayOf(redactDeep(body, this.#secrets, ANSWER_KEYS)), wallMs);
    } finally {
      // Only now: the deadline also guards the body, which arrives after the headers.
      deadline.dispose();
    }
  }

  /** The body as text, at most `maxBodyBytes` of it; a body that stops arriving is a timeout. */
  private async bodyText(response: Response, timeoutMs: number | undefined, outer: AbortSignal, deadline: LinkedSignal): Promise<string> {
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const tooLarge = () => new HttpAgentError(`agent answered a body over ${limit.toLocaleString("en-US")} bytes`, false);
    if (Number(response.headers.get("content-length") ?? 0) > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    try {
      for (;;) {
        const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader?.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof HttpAgentError) throw error;
      if (outer.aborted) throw outer.reason;
      // Final: the agent answered, so it has run the scenario (and its tools) already.
      throw new HttpAgentError(deadline.timedOut() ? `agent did not answer within ${timeoutMs} ms` : `agent's answer broke off: ${(error as Error).message}`, false);
    }
    // As Response.json() does: a leading byte order mark is not part of the JSON.
    return Buffer.concat(chunks).toString("utf8").replace(/^\uFEFF/, "");
  }
}
