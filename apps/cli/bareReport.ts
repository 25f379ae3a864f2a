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
export function namesNoAgent(document: unknown): boolean {
  return isBareReport(document) && !(typeof document.agent_name === "string" && document.agent_name !== "");
}

/**
 * The envelope to import: the file's own, or a bare report wrapped under --run-id, as `agent`'s
 * report when it names none (the evaluation's agent, which evalsCommand looks up: the import
 * refuses another agent's report).
 */
export function envelopeFor(document: unknown, runId: string | undefined, path: string, agent = "agent"): unknown {
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
