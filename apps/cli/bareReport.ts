// A report as `verdict run --format json` writes it (the library's Report JSON: results,
// summary_by_model, metadata; no envelope) for `verdict evals import FILE --run-id ID`: wrapped
// in the version-1 envelope the import takes, the run_id being the user's name for that run (a CI
// build, say), so importing it again is a duplicate, as the guide's publisher keys a published
// run by its own run_id. Without --run-id such a file was refused as "envelope.version: must be 1".
import { CliError } from "./errors.js";

type Json = Record<string, unknown>;

/** A report object with results and no envelope around it. */
function isBareReport(document: unknown): document is Json {
  if (typeof document !== "object" || document === null || Array.isArray(document)) return false;
  return !("version" in document) && !("report" in document) && Array.isArray((document as Json).results);
}

/** catalog/product/set of a catalog run, as `verdict report --format json` names its suite. */
function suiteOf(report: Json): string {
  const metadata = (report.metadata ?? {}) as Json;
  const parts = [metadata.catalog, metadata.product, metadata.set];
  return parts.every((part) => typeof part === "string" && part !== "") ? parts.join("/") : "verdict run";
}

/** Whether the document is a bare report that names no agent (a catalog product without `agent:`). */
function namesNoAgent(document: unknown): boolean {
  return isBareReport(document) && !(typeof document.agent_name === "string" && document.agent_name !== "");
}

/**
 * What `evals import` sends, once it knows where: a bare report that names no agent is filed
 * under the evaluation's agent (the import refuses another agent's report), which the destination
 * looks up with the store or API it imports into; any other envelope is as `envelopeFor` made it.
 */
export interface EnvelopeDraft {
  readonly agentless: boolean;
  envelope(evaluationAgent: string | null): unknown;
}

/** The draft of the file's envelope; a usage error (a bare report without --run-id, say) is thrown now, before anything is opened. */
export function envelopeDraft(document: unknown, runId: string | undefined, path: string): EnvelopeDraft {
  const envelope = envelopeFor(document, runId, path);
  const agentless = namesNoAgent(document);
  return { agentless, envelope: (agent) => (agentless && agent !== null ? envelopeFor(document, runId, path, agent) : envelope) };
}

/**
 * The envelope to import: the file's own, or a bare report wrapped under --run-id, as `agent`'s
 * report when it names none.
 */
function envelopeFor(document: unknown, runId: string | undefined, path: string, agent = "agent"): unknown {
  const bare = isBareReport(document);
  if (bare && runId === undefined) {
    throw new CliError(
      `${path}: a bare report (as \`verdict run --format json\` writes it), not a report envelope: ` +
        "pass --run-id ID (your name for this run, e.g. ci-1234; the same ID again is a duplicate) to import it, " +
        "or import an envelope exported by `verdict report RUN_ID --format json`",
    );
  }
  if (!bare && runId !== undefined) {
    throw new CliError(`--run-id is for a bare report (\`verdict run --format json\`); ${path} is an envelope, imported under its own run_id`);
  }
  if (!bare) return document;
  const named = typeof document.agent_name === "string" && document.agent_name !== "" ? document.agent_name : agent;
  return { version: 1, run_id: runId, source: "verdict run", agent_name: named, suite: suiteOf(document), report: document };
}
