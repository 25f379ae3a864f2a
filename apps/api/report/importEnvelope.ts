// A version-1 report envelope `{ version: 1, run_id, source, agent_name, suite, report }` becomes
// a completed run of an evaluation, keyed by (tenant, run_id): the same report again writes
// nothing (a duplicate), a different one is a CONFLICT. The importReport mutation and `verdict
// evals import` both import through here, so a file and a request are held to the same rules.
import { createHash } from "node:crypto";
import { z } from "zod";
import { eventSchemas, importReport, stableJson, type EventStore, type HandleOptions, type LogPosition, type Plan, type TenantIndex } from "@verdict/domain";
import { ApiError } from "../server/errors.js";
import { depthMessage, tooDeep } from "../server/jsonDepth.js";
import { tenantEvaluation, validInput } from "../schema/resolvers/commandSupport.js";

const envelopeInput = z.object({
  version: z.literal(1, { error: "must be 1" }),
  // The host's name for its run, any storable text (`gh/1234/1`): the run's id here is a hash of it.
  run_id: eventSchemas.hostRunIdText,
  source: z.string().min(1, "must not be blank"),
  agent_name: z.string().min(1, "must not be blank"),
  suite: z.string().min(1, "must not be blank"),
  report: z.record(z.string(), z.unknown(), { error: "must be a report object" }),
});

export type ReportEnvelope = z.output<typeof envelopeInput>;

export interface ImportedEnvelope {
  /** The run's id here: keyed by the tenant and the envelope's run_id. */
  runId: string;
  /** The envelope's run_id, the host's name for the run. */
  hostRunId: string;
  evaluationId: string;
  number: number;
  /** True when this exact report was already imported (nothing written). */
  duplicate: boolean;
  /** Where the run's events landed, for read-your-writes (null for a duplicate). */
  position: LogPosition | null;
}

/** JSON with keys sorted at every level: the same report always hashes the same. */
export const canonicalJson = stableJson;

/**
 * The envelope checked field by field (VALIDATION naming the first bad one). A request's JSON
 * depth was checked by the transport; a file's is checked here, before anything recurses into it.
 */
export function parseEnvelope(envelope: unknown): ReportEnvelope {
  const deep = tooDeep(envelope, undefined, "envelope");
  if (deep !== null) throw new ApiError("VALIDATION", depthMessage(deep), deep);
  const parsed = validInput(envelopeInput, envelope, "envelope");
  // An import becomes a completed run, and a completed run may head the evaluation: a failed run's
  // report (it covers only what was scored before it stopped) must not pass for one.
  const failure = parsed.report.failure;
  if (typeof failure === "string" && failure.trim() !== "") {
    throw new ApiError("VALIDATION", "report.failure: a failed run's report cannot be imported as a completed run", "envelope.report.failure");
  }
  // Nor a running run's: it covers only what was scored when it was exported, and the run it was
  // exported from would give other content under the same run_id once it has ended.
  const inProgress = parsed.report.in_progress;
  if (inProgress !== undefined && inProgress !== null) {
    throw new ApiError(
      "VALIDATION",
      "report.in_progress: a running run's report cannot be imported as a completed run; export it once the run has ended",
      "envelope.report.in_progress",
    );
  }
  return parsed;
}

export async function importEnvelope(
  store: EventStore,
  evaluationId: string,
  envelope: unknown,
  options: Omit<HandleOptions<never>, "decideContext"> & { tenants?: TenantIndex; plan?: Plan },
): Promise<ImportedEnvelope> {
  const input = parseEnvelope(envelope);
  const tenant = options.context.tenant;
  await tenantEvaluation(store, tenant, evaluationId, options.tenants);
  const digest = createHash("sha256").update(canonicalJson(input.report)).digest("hex");
  const { version: _v, ...rest } = input;
  const result = await importReport(store, { ...rest, evaluation_id: evaluationId, tenant, digest }, options);
  const runId = result.run.state.runId;
  if (!runId) throw new Error(`importReport left run ${input.run_id} without an id`);
  const scheduled = result.evaluation.state.runs.find((r) => r.runId === runId);
  const duplicate = result.run.events.length === 0;
  return { runId, hostRunId: input.run_id, evaluationId, number: scheduled?.number ?? 0, duplicate, position: result.run.position };
}
