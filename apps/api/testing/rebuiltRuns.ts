// Test support for a rebuild of the read models under a running API: an imported run (a finished
// run whose runs.host_run_id projection version 2 fills), what migration 008 left in a read
// database version 1 had projected (the column null), and the run's hostRunId as a client reads it.
import type { Platform } from "./harness.js";

const IMPORT = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`;
/** Kept whole by the response cache, and by the run cache and ReadModels field by field. */
export const HOST_RUN_ID = `query ($r: ID!) { run(id: $r) { status hostRunId } }`;

export async function createImportsEvaluation(p: Platform): Promise<string> {
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Imports", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  return created.body.data.createEvaluation.evaluationId;
}

/** Imports a finished report whose run_id is `hostRunId`; answers the run's id here. */
export async function importRun(p: Platform, evaluationId: string, hostRunId: string): Promise<string> {
  const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1 }] };
  const envelope = { version: 1, run_id: hostRunId, source: "ci", agent_name: "SupportAgent", suite: "support", report };
  const imported = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope });
  return imported.body.data.importReport.runId;
}

/**
 * The read database as version 1 projected it and 008 left it (host_run_id null, version 1
 * stored). ReadModels forgets what the import's read-back kept, as an API process that had not
 * read the run yet would not have it.
 */
export async function asVersionOne(p: Platform): Promise<void> {
  const sql = p.read.sql.sql();
  await sql.execute("UPDATE runs SET host_run_id = NULL");
  await sql.execute("UPDATE projector_checkpoints SET projection_version = 1");
  p.read.readModels.clearCache();
}

/** The run's hostRunId over HTTP (an error if the query answered one). */
export async function hostRunIdOf(p: Platform, runId: string): Promise<string | null> {
  const { body } = await p.gql(p.keys.acmeRead, HOST_RUN_ID, { r: runId });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data.run.hostRunId;
}
