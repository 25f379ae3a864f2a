// `verdict evals import FILE --evaluation ID [--tenant T] [--run-id ID]` (reference-platform §6.4):
// publishes a saved report envelope (`report.json` as exported), or with --run-id a bare report
// (`verdict run --format json`), as a completed run of the evaluation, through
// the importReport mutation's own code (importEnvelope). The same run_id with the same report
// again writes nothing and exits 0; with a different report it is a conflict, exit 3.
import { randomUUID } from "node:crypto";
import { importEnvelope, parseEnvelope, type ImportedEnvelope } from "@verdict/api";
import { parseFlags, required } from "./args.js";
import { envelopeFor } from "./bareReport.js";
import { readEnvelopeFile } from "./envelopeFile.js";
import { CliError, EXIT, exitCodeOf, type ExitCode } from "./errors.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import type { Io } from "./io.js";
import { openExistingEventStore, platformMode, Resources } from "./platform.js";
import { tenantOf } from "./tenant.js";

/** A refusal says what it is about: the --evaluation or --run-id flag, else the file (a bad field, a conflict). */
function naming<T>(path: string, runIdFlag: boolean, work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    const code = exitCodeOf(error);
    if (code === EXIT.failed || code === EXIT.unavailable) throw error;
    const field = (error as { field?: unknown }).field;
    const about = field === "evaluationId" ? "--evaluation" : field === "envelope.run_id" && runIdFlag ? "--run-id" : path;
    throw new CliError(`${about}: ${(error as Error).message}`, code);
  });
}

function described(imported: ImportedEnvelope, tenant: string): string {
  const run = `run ${imported.runId} (#${imported.number})`;
  if (imported.duplicate) return `${imported.hostRunId} was imported before with this report, as ${run}: nothing written`;
  return `imported ${imported.hostRunId} as ${run} of evaluation ${imported.evaluationId} for tenant ${tenant}`;
}

export async function evalsImport(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("evals import", argv, FLAG_SPECS["evals import"]);
  const evaluationId = required("evals import", flags, "evaluation", "the id of the evaluation the run belongs to");
  const tenant = tenantOf(flags.values.tenant, env);
  const path = flags.positionals[0];
  const runIdFlag = flags.values["run-id"];
  const envelope = envelopeFor(readEnvelopeFile(path), runIdFlag, path);
  const name = <T>(work: () => Promise<T>) => naming(path, runIdFlag !== undefined, work);
  // A bad envelope is refused before any database is opened.
  await name(async () => parseEnvelope(envelope));
  const mode = platformMode(env);
  const resources = new Resources();
  try {
    // A home with no event log has no evaluation: NOT_FOUND, and nothing is created.
    const store = await openExistingEventStore(mode, resources);
    const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant, actor: "cli" } };
    const imported = await name(() => importEnvelope(store, evaluationId, envelope, options));
    io.err(described(imported, tenant));
    io.out(imported.runId); // for `verdict report RUN_ID`
    return EXIT.ok;
  } finally {
    await resources.close();
  }
}
