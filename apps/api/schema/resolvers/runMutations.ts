// Starting runs, recording an external run's replays, importing finished reports: each through
// the domain's command handling, after checking the evaluation or run is the caller's.
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Resolver } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { z } from "zod";
import {
  ModelSpec, eventSchemas, handleCommand, isValidId, keyedRunId, loadAggregate, ownedByAnotherTenant, recordExternalReplay, runAggregate, runStream, startRun,
} from "@verdict/domain";
import type { ApiContext } from "../../server/context.js";
import { ApiError, notFound } from "../../server/errors.js";
import { importEnvelope } from "../../report/importEnvelope.js";
import { loadRunHistory } from "../../report/runEvents.js";
import { RunNode } from "../types/run.js";
import { afterCommand, afterWrite, commandOptions, namingArguments, ownEvaluation, validInput } from "./commandSupport.js";

@InputType({ description: "Which scenarios and models a run evaluates; omitted parts mean all enabled scenarios / the compare models." })
class RunSelectionInput {
  @Field(() => [String], { nullable: true, description: "Only these scenario keys (of its enabled scenarios); at least one, none blank. With group, both must match." })
  keys?: string[] | null;

  @Field(() => String, { nullable: true, description: "Only the enabled scenarios of this group key, matched exactly; not blank. A selection that leaves no scenario is VALIDATION." })
  group?: string | null;

  @Field(() => [String], { nullable: true, description: "Model names as typed (the label keeps the exact text)." })
  models?: string[] | null;
}

@InputType({ description: "The agent's release a run scores, when the caller names it: kept as given (else the run pins the agent's latest recorded release)." })
class ReleaseInput {
  @Field(() => String, { description: "Not blank, at most 200 characters." })
  digest!: string;

  @Field(() => String, { nullable: true, description: "The build it was made from (a git SHA, a version), at most 200 characters; null when omitted." })
  revision?: string | null;

  @Field(() => String, { nullable: true, description: "The caller's name for the release (`v3`, `2026.12`), at most 200 characters, kept as given; null when omitted." })
  label?: string | null;
}

@ObjectType({ description: "The run startRun started." })
class StartRunPayload {
  @Field(() => ID, { description: "The new run's id (run(id:) reads it); with an idempotencyKey, the id of the run that key started, the same for every retry." })
  runId!: string;

  @Field(() => ID, { description: "The evaluation it runs." })
  evaluationId!: string;

  @Field(() => Int, { description: "Its position in the evaluation's history, oldest = 1." })
  number!: number;

  @Field(() => RunNode, { nullable: true, description: "Null until the read models have it (no projector wait configured)." })
  run!: RunNode | null;

  @Field(() => Boolean, { description: "True when the idempotencyKey had already started this run with the same arguments: nothing written, nothing metered. False for a run this call started." })
  duplicate!: boolean;
}

@ObjectType({ description: "The pair whose replay recordReplay recorded." })
class RecordReplayPayload {
  @Field(() => ID, { description: "The external run." })
  runId!: string;

  @Field(() => String, { description: "The pair's scenario key, as given." })
  scenarioKey!: string;

  @Field(() => String, { description: "The pair's model label, as given." })
  modelLabel!: string;

  @Field(() => Boolean, { description: "True when this exact replay was already recorded for the pair (nothing written, nothing counted twice)." })
  duplicate!: boolean;
}

@ObjectType({ description: "An external run's completion request: the run ends after it (COMPLETED, or FAILED when scored < total); follow runProgress." })
class RunCompletionPayload {
  @Field(() => ID, { description: "The external run." })
  runId!: string;

  @Field(() => Int, { description: "Pairs scored when completion was asked for." })
  scored!: number;

  @Field(() => Int, { description: "The run's pairs: its selected scenarios x its models." })
  total!: number;
}

@ObjectType({ description: "The completed run importReport made of the envelope (or found, for the same report again)." })
class ImportReportPayload {
  @Field(() => ID, { description: "The run's id here (query run(id:) with it): keyed by the tenant and the envelope's run_id." })
  runId!: string;

  @Field(() => ID, { description: "The envelope's run_id, the host's name for the run (report.json gives it back)." })
  hostRunId!: string;

  @Field(() => ID, { description: "The evaluation it was imported into." })
  evaluationId!: string;

  @Field(() => Int, { description: "Its position in the evaluation's history, oldest = 1." })
  number!: number;

  @Field(() => Boolean, { description: "True when this exact report was already imported (nothing written)." })
  duplicate!: boolean;
}

const selectionInput = z.object({
  keys: z.array(z.string().min(1, "must not be blank")).min(1, "name at least one key, or omit keys").nullish(),
  group: z.string().min(1, "must not be blank").nullish(),
  // Empty is refused as keys are: it ran every compare model, which is not what `[]` says.
  models: z.array(z.string()).min(1, "name at least one model, or omit models").nullish(),
});

/** The agent's tool roster for a run: the diagnosis names these tools when a task needs one it lacks. */
// Strict: a misspelt key is an error here rather than silently dropped from the roster.
const toolsInput = z.array(eventSchemas.toolData.strict()).max(500, "at most 500 tools");

function resolveModels(requested: string[] | null | undefined, compareModels: string[]) {
  const names = requested ?? compareModels;
  if (!names.length) throw new ApiError("VALIDATION", "selection.models: name at least one model (the evaluation has no compare models)", "selection.models");
  try {
    return ModelSpec.parseAll(names, { defaultProvider: "openai" }).map((spec) => spec.toJSON());
  } catch (error) {
    // Compare models recorded before the identifier rule (session 43) are refused as a run's
    // labels too: the refusal says they are the evaluation's, and how to start anyway.
    const whose = requested ? "" : "the evaluation's compare models: ";
    const instead = requested ? "" : "; name the models to run in selection.models";
    throw new ApiError("VALIDATION", `selection.models: ${whose}${(error as Error).message}${instead}`, "selection.models");
  }
}

// The commands' fields (and the selection's, bare), as the arguments they came in.
const START_RUN_ARGUMENTS = { evaluation_id: "evaluationId", models: "selection.models", keys: "selection.keys", group: "selection.group", release: "release", idempotency_key: "idempotencyKey" };
const RECORD_REPLAY_ARGUMENTS = { run_id: "runId", scenario_key: "scenarioKey", model_label: "modelLabel" };
const IMPORT_REPORT_ARGUMENTS = { evaluation_id: "evaluationId", run_id: "envelope.run_id", report: "envelope.report" };

const REFUSED_NULL = "Null when refused (the error says why), beside the other fields' answers.";

@Resolver()
export class RunMutations {
  // Nullable, as importReport: in a mutation of several root fields, one refused (a plan's limit)
  // answers null beside the others' payloads instead of nulling `data`, so a client still learns
  // the runs that were started (and metered) and does not start them again.
  @Mutation(() => StartRunPayload, {
    nullable: true,
    description: `Freezes the selection, pins the agent's release and starts a run; external runs wait for recordReplay. Safe to send again only with an idempotencyKey: without one, every call starts (and meters) a new run. ${REFUSED_NULL}`,
  })
  async startRun(
    @Arg("evaluationId", () => ID, { description: "The evaluation's id (one of another tenant's is NOT_FOUND)." }) evaluationId: string,
    @Arg("selection", () => RunSelectionInput, { nullable: true, description: "Which scenarios and models; omitted, every enabled scenario under the evaluation's compare models." }) selection: RunSelectionInput | null,
    @Arg("external", () => Boolean, { nullable: true, description: "true: the caller replays the pairs (recordReplay, then completeExternalRun) and no worker does; default false." }) external: boolean | null,
    @Arg("tools", () => GraphQLJSON, { nullable: true, description: "The agent's tools, [{ name, description?, server? }]: a failure for want of a tool names what it has." }) tools: unknown,
    @Arg("release", () => ReleaseInput, {
      nullable: true,
      description: "The agent's release the run scores. Omitted: the agent's latest recorded release (recordAgentRelease) when the run starts, as { digest, revision, label: v<N> }, or none.",
    })
    release: ReleaseInput | null,
    @Arg("idempotencyKey", () => String, {
      nullable: true,
      description:
        "The caller's key for this start, so that sending the call again (its answer lost) cannot start or meter a second run: the same key with the same arguments answers the run it started (same runId and number, duplicate: true), even when the two calls race; with other arguments it is CONFLICT naming the key. Keyed by tenant and evaluation. Any text of 1-255 characters, not blank, without control characters (else VALIDATION). Omitted: every call starts a new run.",
    })
    idempotencyKey: string | null,
    @Ctx() context: ApiContext,
  ): Promise<StartRunPayload> {
    const options = { ...commandOptions(context), plan: context.deps.plan };
    const chosen = validInput(selectionInput, selection ?? {}, "selection");
    const roster = validInput(toolsInput, tools ?? [], "tools");
    const key = idempotencyKey === null || idempotencyKey === undefined ? null : validInput(eventSchemas.hostRunIdText, idempotencyKey, "idempotencyKey");
    const evaluation = await ownEvaluation(context, evaluationId);
    // Keyed: the run's id is the key's, so a retry (or a racing send) names the same run stream.
    const runId = key === null ? context.deps.ids.next() : keyedRunId(context.principal.tenant, evaluationId, key);
    const command = {
      run_id: runId,
      evaluation_id: evaluationId,
      keys: chosen.keys ?? null,
      group: chosen.group ?? null,
      models: resolveModels(chosen.models, evaluation.compareModels),
      external: external ?? false,
      judge_label: evaluation.judge.kind === "rules" ? null : (evaluation.judge.model ?? null),
      tools: roster,
      release: release ? { digest: release.digest, revision: release.revision ?? null, label: release.label ?? null } : null,
      idempotency_key: key,
    };
    const result = await namingArguments(START_RUN_ARGUMENTS, () => startRun(context.deps.store, command, options));
    // A retry wrote nothing: it waits for the run's last event, so `run` is read back as it is.
    await afterCommand(context, result.run, `run ${runId}`);
    const number = result.run.state.started?.number ?? 0;
    const run = await context.deps.readModels.getRun(context.principal.tenant, runId);
    return { runId, evaluationId, number, run: run as unknown as RunNode | null, duplicate: result.run.events.length === 0 };
  }

  @Mutation(() => RecordReplayPayload, {
    description:
      "An external run's replay of one scenario x model pair. The same replay again is a no-op (duplicate: true); a pair outside the run's selection (VALIDATION) or a different second replay (CONFLICT) is refused and fails the run, keeping what was recorded.",
  })
  async recordReplay(
    @Arg("runId", () => ID, { description: "The external run's id (one of another tenant's is NOT_FOUND; a run the workers replay is CONFLICT)." }) runId: string,
    @Arg("scenarioKey", () => String, { description: "A scenario key of the run's selection (another is VALIDATION, and fails the run)." }) scenarioKey: string,
    @Arg("modelLabel", () => String, { description: "One of the run's model labels (another is VALIDATION, and fails the run)." }) modelLabel: string,
    @Arg("replay", () => GraphQLJSON, { description: "{ answer, tool_calls, duration_ms, input_tokens, output_tokens, error, cost, metadata }, or their camelCase; any other key is refused (VALIDATION, naming it)" }) replay: unknown,
    @Ctx() context: ApiContext,
  ): Promise<RecordReplayPayload> {
    const options = commandOptions(context);
    if (!isValidId(runId) || (await ownedByAnotherTenant(context.deps.readModels, "run", runId, context.principal.tenant))) throw notFound("run", runId, "runId");
    const { state } = await loadAggregate(context.deps.store, runAggregate, runStream(runId));
    if (state.status === "none" || state.started?.tenant !== context.principal.tenant) throw notFound("run", runId, "runId");
    if (!state.external) throw new ApiError("CONFLICT", `run ${runId} is not external; its replays are the workers'`, "runId");
    const command = { run_id: runId, scenario_key: scenarioKey, model_label: modelLabel, replay };
    const recorded = await namingArguments(RECORD_REPLAY_ARGUMENTS, async () => {
      const outcome = await recordExternalReplay(context.deps.store, state, command, options);
      if (!outcome.refused) return outcome;
      // Refused, and the run failed for it: answered once the read models show the failure.
      await afterWrite(context, outcome.refused.run.position, `run ${runId}'s failure for the refused replay of ${scenarioKey} x ${modelLabel}`);
      throw outcome.refused.error;
    });
    await afterWrite(context, recorded.result.position, `the replay of ${scenarioKey} x ${modelLabel} in run ${runId}`);
    return { runId, scenarioKey, modelLabel, duplicate: recorded.duplicate };
  }

  @Mutation(() => RunCompletionPayload, {
    description: "An external run's host is done recording: the run completes (a missing pair fails it, named).",
  })
  async completeExternalRun(@Arg("runId", () => ID, { description: "The external run's id (one of another tenant's is NOT_FOUND; a run the workers replay is CONFLICT)." }) runId: string, @Ctx() context: ApiContext): Promise<RunCompletionPayload> {
    const options = commandOptions(context);
    const history = await loadRunHistory(context.deps.store, context.principal.tenant, runId, { field: "runId", tenants: context.deps.readModels });
    if (!history.record?.started.external) throw new ApiError("CONFLICT", `run ${runId} is not external; the workers complete it`, "runId");
    const scored = history.record.scored.size;
    const command = { type: "RequestRunCompletion", run_id: runId, scored };
    const handled = await handleCommand(context.deps.store, runAggregate, runStream(runId), command, options);
    await afterWrite(context, handled.position, `the completion request of run ${runId}`);
    return { runId, scored, total: history.record.started.scenarios.length * history.record.started.models.length };
  }

  @Mutation(() => ImportReportPayload, {
    nullable: true,
    description: `A version-1 report envelope becomes a completed run, keyed by (tenant, run_id); the same report again is a no-op. ${REFUSED_NULL}`,
  })
  async importReport(
    @Arg("evaluationId", () => ID, { description: "The evaluation it is imported into (one of another tenant's is NOT_FOUND)." }) evaluationId: string,
    @Arg("envelope", () => GraphQLJSON, { description: "A version-1 report envelope, { version: 1, run_id, source, agent_name, suite, report }: run_id any text of 1-255 characters; what breaks the rules is VALIDATION naming its path (envelope.report.results[3].scenario_key), nothing written." }) envelope: unknown,
    @Ctx() context: ApiContext,
  ): Promise<ImportReportPayload> {
    const options = { ...commandOptions(context), tenants: context.deps.readModels, plan: context.deps.plan };
    const { position, ...imported } = await namingArguments(IMPORT_REPORT_ARGUMENTS, () => importEnvelope(context.deps.store, evaluationId, envelope, options));
    await afterWrite(context, position, `run ${imported.runId} (the envelope's run ${imported.hostRunId})`);
    return imported;
  }
}
