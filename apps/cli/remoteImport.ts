// `verdict evals import --url URL`: the envelope sent to another install's API through its
// importReport mutation (the code a local import runs, there), with VERDICT_API_KEY. The answer
// becomes the exit code a local import gives: VALIDATION or NOT_FOUND 2 and CONFLICT 3 (each
// with its field, for the caller to name the flag or file), a refused key 5 (401 or 403), an API
// that cannot be used 4 (unreachable, timed out, UNAVAILABLE, or not answering in GraphQL).
import { truncateBytes } from "@verdict/domain";
import { CliError, EXIT, type ExitCode } from "./errors.js";
import { ApiUnreachableError, gqlClient, GraphQLRequestError, NotGraphQLError, type GqlClient } from "./gqlClient.js";
import type { RemoteTarget } from "./remoteTarget.js";
import type { EnvelopeDraft } from "./bareReport.js";

const IMPORT_REPORT = `mutation ($evaluationId: ID!, $envelope: JSON!) {
  importReport(evaluationId: $evaluationId, envelope: $envelope) { runId hostRunId evaluationId number duplicate }
}`;

export interface RemoteImported {
  runId: string;
  hostRunId: string;
  evaluationId: string;
  number: number;
  duplicate: boolean;
}

const EXIT_OF_API_CODE: Record<string, ExitCode> = {
  VALIDATION: EXIT.usage, NOT_FOUND: EXIT.usage, PAYLOAD_TOO_LARGE: EXIT.usage, CONFLICT: EXIT.conflict,
  UNAUTHENTICATED: EXIT.keyRefused, FORBIDDEN: EXIT.keyRefused, UNAVAILABLE: EXIT.unavailable,
};

/** What the API refused of the input, as a local import refuses it: its exit code and field. */
class RemoteRefusal extends CliError {
  constructor(
    message: string,
    exitCode: ExitCode,
    readonly field: string | null,
  ) {
    super(message, exitCode);
  }
}

/** importReport's answer is well under 1 KB: more than this is not the API this command talks to. */
const MAX_ANSWER_BYTES = 1024 ** 2;
/** A server's message is shown up to this many bytes: a broken or hostile one could fill the terminal. */
const MAX_MESSAGE_BYTES = 500;

/** The error the CLI reports for a failed request; no message holds the key. */
function reported(error: unknown, target: RemoteTarget): Error {
  // The key goes before the cut, so no part of it is left to show.
  const redact = (text: string) => truncateBytes(text.replaceAll(target.apiKey, "<VERDICT_API_KEY>"), MAX_MESSAGE_BYTES);
  if (error instanceof ApiUnreachableError || error instanceof NotGraphQLError) return new CliError(redact(error.message), EXIT.unavailable);
  if (!(error instanceof GraphQLRequestError)) return new Error(redact(error instanceof Error ? error.message : String(error)));
  const code = EXIT_OF_API_CODE[error.code ?? ""] ?? EXIT.failed;
  const message = redact(error.message);
  if (code === EXIT.keyRefused) return new CliError(`the API at ${target.url} refused VERDICT_API_KEY: ${message}`, code);
  if (code === EXIT.unavailable) return new CliError(`the API at ${target.url} cannot be used now: ${message}`, code);
  if (code === EXIT.failed) return new Error(`the API at ${target.url} answered ${error.code ?? "an error"}: ${message}`);
  return new RemoteRefusal(message, code, error.field);
}

const EVALUATION_AGENT = `query ($id: ID!) { evaluation(id: $id) { agent } }`;

/** The evaluation's agent at the API, or null when the API does not show it (its importReport then says why). */
async function remoteAgent(client: GqlClient, evaluationId: string): Promise<string | null> {
  try {
    const data = await client.request<{ evaluation?: { agent?: unknown } | null } | null>(EVALUATION_AGENT, { id: evaluationId });
    const agent = data?.evaluation?.agent;
    return typeof agent === "string" ? agent : null;
  } catch {
    // NOT_FOUND and the like are the import's to report, in its own words.
    return null;
  }
}

export async function importRemotely(target: RemoteTarget, evaluationId: string, draft: EnvelopeDraft): Promise<RemoteImported> {
  const client = gqlClient(target, target.apiKey, { timeoutMs: target.timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES });
  try {
    const envelope = draft.envelope(draft.agentless ? await remoteAgent(client, evaluationId) : null);
    const data = await client.request<{ importReport?: RemoteImported } | null>(IMPORT_REPORT, { evaluationId, envelope });
    if (!data?.importReport) throw new NotGraphQLError(`the API at ${target.url} answered without importReport's result: is the URL the Verdict API's?`);
    return data.importReport;
  } catch (error) {
    throw reported(error, target);
  } finally {
    await client.close();
  }
}
