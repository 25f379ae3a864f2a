// Evaluations: queries from the read models (tenant-scoped), suite mutations through the
// evaluation aggregate.
import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Float } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { z } from "zod";
import {
  adoptEvaluationName, catalogAggregate, catalogStream, createEvaluation, legacyMaterialization, DEFAULT_CRITERIA, isDomainError, evaluationAggregate, evaluationNameAggregate, evaluationNameStream, evaluationStream,
  eventSchemas, handleCommand, isBlank, loadAggregate, materializeCatalogSet, stableJson, type MaterializeRequest,
} from "@verdict/domain";
import { listPage } from "@verdict/projector";
import type { LogPosition } from "@verdict/domain";
import type { ApiContext } from "../../server/context.js";
import { ApiError, notFound } from "../../server/errors.js";
import { JudgeKind, OnRemoved } from "../types/enums.js";
import { EvaluationConnection, EvaluationNode, ScenarioConnection, type ScenarioNode } from "../types/evaluation.js";
import { RunConnection, RunNode } from "../types/run.js";
import { afterCommand, afterWrite, commandOptions, namingArguments, ownEvaluation, validInput } from "./commandSupport.js";
import { evaluationFromCatalogSet } from "./catalogSet.js";
import { givenSource, scenarioRecords } from "./scenarioInputs.js";
import { OVER_BUDGET } from "../../server/answerBudget.js";
import { MISSING_NULL } from "./missingNull.js";
import { PAGE_AFTER, PAGE_FIRST, WHOLE_LIST_FIRST } from "./pageArguments.js";

@InputType({
  description:
    "A new evaluation; scenarios as pasted text or JSON records, or everything from a catalog set (not both). Neither makes an evaluation with no scenarios yet (to merge into, or import reports into); a given text or list that selects none is VALIDATION and writes nothing.",
})
export class CreateEvaluationInput {
  @Field(() => String, { nullable: true, description: "The agent evaluated (a catalog set's product agent when omitted)." })
  agent?: string | null;

  @Field(() => String, { nullable: true, description: "Unique among the agent's evaluations, compared as stored (CONFLICT otherwise); required unless fromCatalogSet names it." })
  name?: string | null;

  @Field(() => JudgeKind, { nullable: true, description: "RULES, LLM or JUDGE_DEFINED (the first run asks the judge to define 3-6 KPIs, scored as llm_judge criteria beside the others; clearKpis makes the next run ask again); when omitted, LLM if judgeModel is given, else the catalog set's, else RULES." })
  judgeKind?: JudgeKind | null;

  @Field(() => String, { nullable: true, description: "The judge's model; alone it means an llm judge, as a catalog set's `judge: {model: x}` does." })
  judgeModel?: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "[{ key, type, config }]; the defaults when omitted. Types and the config each reads: response_present, min_length {chars}, max_latency_ms {ms}, token_budget {output_tokens}, contains / not_contains {pattern}, llm_judge {prompt}, trace_error_rate, trace_latency; another type or config key is VALIDATION." })
  criteria?: unknown;

  @Field(() => Float, { nullable: true, description: "The score a pair must reach to pass, a fraction from 0 to 1 (not a percent; outside it is VALIDATION); 0.7 when omitted." })
  threshold?: number | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "true: a judge grade a pair expected and did not get (task_completion when the judge grades it, each llm_judge criterion; the judge call failed or answered unusably) fails the pair with the fault judge_unavailable, never the run (reference-core §11 step 6). false when omitted: such a grade is left out and the pair may pass on its rules alone. Each run keeps the value it started with.",
  })
  requireJudgeScores?: boolean | null;

  @Field(() => [String], { nullable: true, description: "The models a run compares when startRun names none; a blank name is VALIDATION, a repeated one is kept once." })
  compareModels?: string[] | null;

  @Field(() => String, { nullable: true, description: "Pasted lines, JSON, or a grouped YAML/JSON suite (ScenarioParser)." })
  scenariosText?: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "Scenario records, in the shape of the nodes `evaluation { scenarios }` answers or as snake_case records." })
  scenarios?: unknown;

  @Field(() => String, { nullable: true, description: "<catalog>/<product>/<set>: the set's scenarios, judge and criteria; product and set keys may hold '/'." })
  fromCatalogSet?: string | null;

  @Field(() => Boolean, { nullable: true, description: "Keep production_only scenarios of the text, list or set (default false)." })
  includeProductionOnly?: boolean | null;
}

@ObjectType({ description: "The evaluation a mutation created or changed." })
class EvaluationPayload {
  @Field(() => ID, { description: "The evaluation's id (evaluation(id:) reads it)." })
  evaluationId!: string;

  @Field(() => EvaluationNode, { nullable: true, description: "Null until the read models have it (no projector wait configured)." })
  evaluation!: EvaluationNode | null;
}

@ObjectType({ description: "How a replace or merge changed the suite, by scenario key; resending what is stored answers every key unchanged." })
class ScenarioChangesPayload {
  @Field(() => ID, { description: "The evaluation whose suite it is." })
  evaluationId!: string;

  @Field(() => [String], { description: "Keys new to the suite." })
  added!: string[];

  @Field(() => [String], { description: "Keys already in the suite whose scenario changed." })
  updated!: string[];

  @Field(() => [String], { description: "Keys given exactly as already stored." })
  unchanged!: string[];

  @Field(() => [String], { description: "Keys the new suite no longer names, deleted (replaceScenarios with onRemoved DESTROY); [] for a merge." })
  removed!: string[];

  @Field(() => [String], { description: "Keys the new suite no longer names, kept disabled (replaceScenarios with onRemoved DISABLE); [] for a merge." })
  disabled!: string[];
}

function changes(evaluationId: string, data: Record<string, unknown> | undefined): ScenarioChangesPayload {
  const list = (key: string) => (Array.isArray(data?.[key]) ? (data[key] as string[]) : []);
  return { evaluationId, added: list("added"), updated: list("updated"), unchanged: list("unchanged"), removed: list("removed"), disabled: list("disabled") };
}

type JudgeSetting = { kind: string; model: string | null };

/**
 * The evaluation's judge: what the input names over what the catalog set names. A model alone
 * means an llm judge, as it does in a catalog set.
 */
function judgeSetting(input: CreateEvaluationInput, fromSet: JudgeSetting | undefined): JudgeSetting | undefined {
  const { judgeKind, judgeModel } = input;
  if ((judgeKind === undefined || judgeKind === null) && (judgeModel === undefined || judgeModel === null)) return fromSet;
  // judgeKind is a JudgeKind already: GraphQL refuses any other value (BAD_USER_INPUT).
  if (judgeModel !== undefined && judgeModel !== null && (isBlank(judgeModel) || judgeModel.length > eventSchemas.JUDGE_MODEL_MAX)) {
    throw new ApiError("VALIDATION", `judgeModel: must be a model name: non-blank text of at most ${eventSchemas.JUDGE_MODEL_MAX} characters`, "judgeModel");
  }
  const model = judgeModel ?? fromSet?.model ?? null;
  const kind = judgeKind ?? (judgeModel ? "llm" : (fromSet?.kind ?? "rules"));
  return { kind, model };
}

/**
 * The models to compare, one refused here when blank, naming the input's field (the command
 * refuses it too, as `compare_models[i]`). A repeated name is kept once by the command, as
 * startRun's `selection.models` collapses one.
 */
function compareModels(names: readonly string[]): readonly string[] {
  const blank = names.findIndex((name) => isBlank(name));
  if (blank >= 0) throw new ApiError("VALIDATION", `compareModels[${blank}]: must not be blank`, `compareModels[${blank}]`);
  return names;
}

/** The catalog set's path; refused (VALIDATION, naming the other field) when scenarios are given beside it: a set brings its own. */
function onlyCatalogSet(input: CreateEvaluationInput): string {
  const other = givenSource(input);
  if (other) throw new ApiError("VALIDATION", `give fromCatalogSet or ${other}, not both: a catalog set brings its own scenarios`, other);
  return input.fromCatalogSet as string;
}

type CatalogRef = { catalog_key: string; product_key: string; set_key: string; digest: string };

/** The judge and criteria an evaluation of a set keeps over the set's at every sync; null follows the set. */
type Pinned = Pick<MaterializeRequest, "judge" | "criteria">;

/** Criteria as an evaluation stores them: the defaults when the list is empty. */
function storedCriteria(given: unknown): MaterializeRequest["criteria"] {
  const criteria = validInput(z.array(eventSchemas.criterionInput), given, "criteria");
  return criteria.length ? criteria : DEFAULT_CRITERIA;
}

/**
 * The evaluation already holding this catalog set's name for the agent, when it was made from
 * the same set: createEvaluation re-syncs and answers it rather than CONFLICT, keeping the judge
 * and criteria its creation pinned. One another input made under that name is not the set's, and
 * stays a CONFLICT. A threshold, requireJudgeScores, compare models, judge or criteria other than the evaluation's
 * is CONFLICT, naming it: a repeated call syncs, it does not redefine (and no event changes the
 * first two). An evaluation made before names were reserved is given the name's reservation
 * first (adoptEvaluationName), so the set's evaluation from an older Verdict is answered too.
 */
async function catalogSetEvaluation(
  context: ApiContext, input: CreateEvaluationInput, base: { name: string; agent?: string; catalog: CatalogRef },
): Promise<{ evaluationId: string; pinned: Pinned } | null> {
  const agent = (input.agent ?? base.agent)?.trim();
  const name = (input.name ?? base.name).trim();
  if (!agent || !name) return null;
  const { store } = context.deps;
  const tenant = context.principal.tenant;
  await adoptEvaluationName(store, context.deps.readModels, { tenant, agent, name }, commandOptions(context));
  const holder = (await loadAggregate(store, evaluationNameAggregate, evaluationNameStream(tenant, agent, name))).state.evaluationId;
  if (!holder) return null;
  const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream(holder));
  const ref = state.catalog;
  if (!state.exists || state.tenant !== tenant || !ref) return null;
  if (ref.catalog_key !== base.catalog.catalog_key || ref.product_key !== base.catalog.product_key || ref.set_key !== base.catalog.set_key) return null;
  const conflict = (field: string) =>
    new ApiError("CONFLICT", `evaluation ${holder} (${name}) already follows this catalog set with another ${field}; sync it without ${field}, or create one under another name`, field);
  if (input.threshold !== undefined && input.threshold !== null && input.threshold !== state.threshold) throw conflict("threshold");
  if (input.requireJudgeScores !== undefined && input.requireJudgeScores !== null && input.requireJudgeScores !== state.requireJudgeScores) throw conflict("requireJudgeScores");
  if (input.compareModels && stableJson([...new Set(compareModels(input.compareModels).map((m) => m.trim()))]) !== stableJson(state.compareModels)) {
    throw conflict("compareModels");
  }
  const judge = judgeSetting(input, state.judge) ?? state.judge;
  if (judge.kind !== state.judge.kind) throw conflict(input.judgeKind ? "judgeKind" : "judgeModel");
  if (judge.model !== state.judge.model) throw conflict("judgeModel");
  if (input.criteria !== undefined && input.criteria !== null && stableJson(storedCriteria(input.criteria)) !== stableJson(state.criteria)) throw conflict("criteria");
  const catalog = (await loadAggregate(store, catalogAggregate, catalogStream(tenant, ref.catalog_key))).state;
  // Not recorded: made before sets were followed; what it named itself is read off its import.
  const recorded = catalog.materialized.get(holder) ?? (await legacyMaterialization(store, tenant, ref.catalog_key, state, catalog.products));
  return { evaluationId: holder, pinned: { judge: recorded?.judge ?? null, criteria: recorded?.criteria ?? null } };
}

/**
 * The set's evaluation that another call is creating this moment, once it is recorded (null when
 * `error` is not that race, or the creation has not landed within 2 s). Two identical
 * createEvaluation(fromCatalogSet) at once (CI shards setting up one set) can both pass the check
 * above before either writes; the loser's name reservation then finds the name held by a creation
 * not yet recorded (CONFLICT "its creation has not finished"). Waiting for that creation answers
 * the same evaluation a repeat a moment later would.
 */
async function evaluationBeingCreated(
  context: ApiContext, input: CreateEvaluationInput, base: { name: string; agent?: string; catalog: CatalogRef }, error: unknown,
): Promise<{ evaluationId: string; pinned: Pinned } | null> {
  if (!isDomainError(error) || error.code !== "conflict" || error.field !== "name") return null;
  for (let waited = 0; waited < 2_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const created = await catalogSetEvaluation(context, input, base);
    if (created) return created;
  }
  return null;
}

// createEvaluation's input fields, as the command (snake_case) or a check (bare) names them.
const CREATE_EVALUATION_ARGUMENTS = Object.fromEntries(
  ["agent", "name", "judgeKind", "judgeModel", "criteria", "threshold", "requireJudgeScores", "compareModels", "scenariosText", "scenarios", "fromCatalogSet", "includeProductionOnly"].flatMap(
    (field) => [[field, `input.${field}`], [field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), `input.${field}`]],
  ),
);

@Resolver(() => EvaluationNode)
export class EvaluationResolver {
  @Query(() => EvaluationConnection, { nullable: true, description: `The tenant's evaluations, newest-updated first (Evaluation.updatedAt: its last change, run or import; then id). ${MISSING_NULL}` })
  async evaluations(
    @Arg("first", () => Int, { nullable: true, description: PAGE_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Arg("archived", () => Boolean, {
      nullable: true,
      defaultValue: false,
      description: "false (the default): the index, without archived evaluations (reference-platform §1 #41); true: only the archived ones; null: every one.",
    })
    archived: boolean | null,
    @Arg("agent", () => String, { nullable: true, description: "Only the evaluations of this agent (its name, matched exactly, as Evaluation.agent gives it); omitted: every agent's." })
    agent: string | null,
    @Ctx() context: ApiContext,
  ): Promise<EvaluationConnection> {
    return (await context.deps.readModels.listEvaluations(context.principal.tenant, { first: first ?? undefined, after, archived, agent })) as EvaluationConnection;
  }

  @Query(() => EvaluationNode, { nullable: true, description: `An evaluation of the tenant's; NOT_FOUND otherwise. ${MISSING_NULL}` })
  async evaluation(@Arg("id", () => ID, { description: "The evaluation's id (one of another tenant's is NOT_FOUND)." }) id: string, @Ctx() context: ApiContext): Promise<EvaluationNode> {
    const found = await context.deps.readModels.getEvaluation(context.principal.tenant, id);
    if (!found) throw notFound("evaluation", id);
    return found as EvaluationNode;
  }

  @FieldResolver(() => ScenarioConnection, { nullable: true, description: `The suite in order (position, key); the whole suite unless \`first\` is given. ${OVER_BUDGET}` })
  async scenarios(
    @Root() evaluation: EvaluationNode,
    @Arg("group", () => String, { nullable: true, description: "Only the scenarios of this group key, matched exactly; omitted: every group (and none)." }) group: string | null,
    @Arg("enabled", () => Boolean, { nullable: true, description: "true: only enabled scenarios; false: only disabled ones; omitted: both." }) enabled: boolean | null,
    @Arg("first", () => Int, { nullable: true, description: WHOLE_LIST_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<ScenarioConnection> {
    const rows = await context.deps.readModels.listScenarios(context.principal.tenant, evaluation.id, { group, enabled });
    // Tags and params live in the stored scenario (`data`), as the evaluation's events hold it.
    const scenarios = rows.map((row) => {
      const data = (row.data ?? {}) as { tags?: string[]; params?: Record<string, unknown> };
      return { ...row, tags: data.tags ?? [], params: data.params ?? {} };
    }) as ScenarioNode[];
    // The filters are part of the list: a place in one filter's list is another in the next's.
    return listPage(scenarios, { first, after }, `scenarios of ${evaluation.id}${JSON.stringify([group ?? null, enabled ?? null])}`);
  }

  @FieldResolver(() => RunConnection, { nullable: true, description: `Runs newest first. ${MISSING_NULL}` })
  async runs(
    @Root() evaluation: EvaluationNode,
    @Arg("first", () => Int, { nullable: true, description: PAGE_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<RunConnection> {
    return (await context.deps.readModels.listRuns(context.principal.tenant, evaluation.id, { first: first ?? undefined, after })) as unknown as RunConnection;
  }

  @FieldResolver(() => RunNode, { nullable: true, description: "The newest run (highest number), whatever its status; null while it has none." })
  async latestRun(@Root() evaluation: EvaluationNode, @Ctx() context: ApiContext): Promise<RunNode | null> {
    return (await context.deps.readModels.latestRun(context.principal.tenant, evaluation.id)) as unknown as RunNode | null;
  }

  @FieldResolver(() => RunNode, { nullable: true, description: "The newest COMPLETED run (by number), which the standing is read from; null while none has completed." })
  async headlineRun(@Root() evaluation: EvaluationNode, @Ctx() context: ApiContext): Promise<RunNode | null> {
    if (!evaluation.headlineRunId) return null;
    return (await context.deps.readModels.getRun(context.principal.tenant, evaluation.headlineRunId)) as unknown as RunNode | null;
  }

  @FieldResolver(() => RunNode, { nullable: true, description: "The run before the latest one." })
  async previousRun(@Root() evaluation: EvaluationNode, @Ctx() context: ApiContext): Promise<RunNode | null> {
    const latest = await context.deps.readModels.latestRun(context.principal.tenant, evaluation.id);
    if (!latest) return null;
    return (await context.deps.readModels.previousRun(context.principal.tenant, latest.id)) as unknown as RunNode | null;
  }

  @Mutation(() => EvaluationPayload, {
    description:
      "Creates an evaluation from its input; from a catalog set, one the agent already has under that name is synced to the set and answered instead (CONFLICT when the input names another threshold, requireJudgeScores, compareModels, judge or criteria).",
  })
  async createEvaluation(@Arg("input", () => CreateEvaluationInput, { description: "What to create; a refused field's error names it (input.name, input.criteria...), and nothing is written." }) input: CreateEvaluationInput, @Ctx() context: ApiContext): Promise<EvaluationPayload> {
    return namingArguments(CREATE_EVALUATION_ARGUMENTS, () => this.#createEvaluation(input, context));
  }

  async #createEvaluation(input: CreateEvaluationInput, context: ApiContext): Promise<EvaluationPayload> {
    const options = commandOptions(context);
    const base = input.fromCatalogSet
      ? await evaluationFromCatalogSet(context, onlyCatalogSet(input), input.includeProductionOnly ?? false)
      : { scenarios: scenarioRecords(input, "create") };
    const judge = judgeSetting(input, "judge" in base ? base.judge : undefined);
    if ("catalog" in base) {
      const existing = await catalogSetEvaluation(context, input, base);
      if (existing) return this.#materialize(input, context, existing.evaluationId, base.catalog, existing.pinned);
    }
    const evaluationId = context.deps.ids.next();
    const command = {
      type: "CreateEvaluation",
      evaluation_id: evaluationId,
      tenant: context.principal.tenant,
      ...base,
      // Given, even empty: an empty one is refused as blank, not reported as missing.
      ...(input.agent !== undefined && input.agent !== null ? { agent: input.agent } : {}),
      ...(input.name !== undefined && input.name !== null ? { name: input.name } : {}),
      ...(judge ? { judge } : {}),
      ...(input.criteria !== undefined && input.criteria !== null ? { criteria: input.criteria } : {}),
      ...(input.threshold !== undefined && input.threshold !== null ? { threshold: input.threshold } : {}),
      ...(input.requireJudgeScores !== undefined && input.requireJudgeScores !== null ? { require_judge_scores: input.requireJudgeScores } : {}),
      ...(input.compareModels ? { compare_models: compareModels(input.compareModels) } : {}),
    };
    // Reserves the name for the agent first: a name the agent's evaluations already use is a CONFLICT.
    let handled: Awaited<ReturnType<typeof createEvaluation>>["evaluation"];
    try {
      ({ evaluation: handled } = await createEvaluation(context.deps.store, command, { ...options, directory: context.deps.readModels }));
    } catch (error) {
      if (!("catalog" in base)) throw error;
      const concurrent = await evaluationBeingCreated(context, input, base, error);
      if (!concurrent) throw error;
      return this.#materialize(input, context, concurrent.evaluationId, base.catalog, concurrent.pinned);
    }
    if ("catalog" in base) {
      // Named here: kept over the set's at every sync. Not named: the set's, whatever it becomes.
      const named = { judge: input.judgeKind || input.judgeModel ? (judge ?? null) : null, criteria: input.criteria ?? null } as Pinned;
      return this.#materialize(input, context, evaluationId, base.catalog, named, handled.position);
    }
    await afterWrite(context, handled.position, `evaluation ${evaluationId}`);
    return { evaluationId, evaluation: (await context.deps.readModels.getEvaluation(context.principal.tenant, evaluationId)) as EvaluationNode | null };
  }

  /**
   * A catalog set's evaluation, new or existing, follows the set: it is synced to the set's
   * current import (scenarios the set dropped disabled, not destroyed; surviving keys keep their
   * record and enabled flag) and every later import of the catalog syncs it again (catalogSync.ts).
   * The judge and criteria its creation named, if any, stay the evaluation's over the set's.
   */
  async #materialize(
    input: CreateEvaluationInput, context: ApiContext, evaluationId: string, catalog: CatalogRef, pinned: Pinned, created: LogPosition | null = null,
  ): Promise<EvaluationPayload> {
    const request = {
      tenant: context.principal.tenant,
      catalog_key: catalog.catalog_key,
      evaluation_id: evaluationId,
      product_key: catalog.product_key,
      set_key: catalog.set_key,
      include_production_only: input.includeProductionOnly ?? false,
      ...pinned,
    };
    const synced = await materializeCatalogSet(context.deps.store, request, commandOptions(context));
    await afterWrite(context, synced.position ?? created, `evaluation ${evaluationId}`);
    return { evaluationId, evaluation: (await context.deps.readModels.getEvaluation(context.principal.tenant, evaluationId)) as EvaluationNode | null };
  }

  @Mutation(() => EvaluationPayload, {
    description:
      "Archives (true) or unarchives (false) the evaluation: an archived one leaves `evaluations` unless `archived: true` asks for it. The same value again changes nothing; a new run or an imported report unarchives it.",
  })
  async archiveEvaluation(
    @Arg("evaluationId", () => ID, { description: "The evaluation's id (one of another tenant's is NOT_FOUND)." }) evaluationId: string,
    @Arg("archived", () => Boolean, { description: "true archives it, false unarchives it." }) archived: boolean,
    @Ctx() context: ApiContext,
  ): Promise<EvaluationPayload> {
    const options = commandOptions(context);
    await ownEvaluation(context, evaluationId);
    const command = { type: "ArchiveEvaluation", evaluation_id: evaluationId, archived };
    const handled = await handleCommand(context.deps.store, evaluationAggregate, evaluationStream(evaluationId), command, options);
    // Nothing appended when it already was so: the answer still waits for the read models to
    // hold what the log does.
    await afterCommand(context, handled, `evaluation ${evaluationId} ${archived ? "archived" : "unarchived"}`);
    return { evaluationId, evaluation: (await context.deps.readModels.getEvaluation(context.principal.tenant, evaluationId)) as EvaluationNode | null };
  }

  @Mutation(() => ScenarioChangesPayload, { description: "Treats the input as the whole suite." })
  async replaceScenarios(
    @Arg("evaluationId", () => ID, { description: "The evaluation's id (one of another tenant's is NOT_FOUND)." }) evaluationId: string,
    @Arg("scenariosText", () => String, { nullable: true, description: "Pasted lines, JSON, or a grouped YAML/JSON suite (ScenarioParser); give it or scenarios, not both." }) scenariosText: string | null,
    @Arg("scenarios", () => GraphQLJSON, { nullable: true, description: "Scenario records, in the shape of the nodes `evaluation { scenarios }` answers or as snake_case records; give it or scenariosText, not both." }) scenarios: unknown,
    @Arg("onRemoved", () => OnRemoved, { nullable: true, description: "Scenarios the new suite no longer names: DESTROY (the default) deletes them, DISABLE keeps them disabled." })
    onRemoved: OnRemoved | null,
    @Arg("includeProductionOnly", () => Boolean, { nullable: true, description: "Keep production_only scenarios (default false, as createEvaluation)." })
    includeProductionOnly: boolean | null,
    @Ctx() context: ApiContext,
  ): Promise<ScenarioChangesPayload> {
    const options = commandOptions(context);
    await ownEvaluation(context, evaluationId);
    const records = scenarioRecords({ scenariosText, scenarios, includeProductionOnly }, "replace");
    const command = { type: "ReplaceScenarios", evaluation_id: evaluationId, scenarios: records, on_removed: onRemoved ?? "destroy" };
    const handled = await handleCommand(context.deps.store, evaluationAggregate, evaluationStream(evaluationId), command, options);
    await afterWrite(context, handled.position, `the new suite of evaluation ${evaluationId}`);
    const replaced = handled.domainEvents[0]?.data as Record<string, unknown> | undefined;
    return replaced ? changes(evaluationId, replaced) : changes(evaluationId, { unchanged: records.map((r) => String((r as { key?: unknown }).key ?? "")) });
  }

  @Mutation(() => ScenarioChangesPayload, { description: "Adds new keys and updates named ones; never touches the rest." })
  async mergeScenarios(
    @Arg("evaluationId", () => ID, { description: "The evaluation's id (one of another tenant's is NOT_FOUND)." }) evaluationId: string,
    @Arg("scenariosText", () => String, { nullable: true, description: "Pasted lines, JSON, or a grouped YAML/JSON suite (ScenarioParser); give it or scenarios, not both." }) scenariosText: string | null,
    @Arg("scenarios", () => GraphQLJSON, { nullable: true, description: "Scenario records, in the shape of the nodes `evaluation { scenarios }` answers or as snake_case records; give it or scenariosText, not both." }) scenarios: unknown,
    @Arg("keyPrefix", () => String, { nullable: true, description: "Begins the keys made for scenarios of scenariosText that name none (`<prefix>_<group>_<n>`), as a key part of at most 40 characters; one with no letters or digits is VALIDATION." }) keyPrefix: string | null,
    @Arg("includeProductionOnly", () => Boolean, { nullable: true, description: "Keep production_only scenarios of the text or list (default true, as the guide's parse does)." })
    includeProductionOnly: boolean | null,
    @Ctx() context: ApiContext,
  ): Promise<ScenarioChangesPayload> {
    const options = commandOptions(context);
    const state = await ownEvaluation(context, evaluationId);
    const source = { scenariosText, scenarios, keyPrefix, includeProductionOnly };
    const records = scenarioRecords(source, "merge", state.scenarios.map((s) => s.key));
    const command = { type: "MergeScenarios", evaluation_id: evaluationId, scenarios: records };
    const handled = await handleCommand(context.deps.store, evaluationAggregate, evaluationStream(evaluationId), command, options);
    await afterWrite(context, handled.position, `the merge into evaluation ${evaluationId}`);
    const merged = handled.domainEvents[0]?.data as Record<string, unknown> | undefined;
    // Nothing appended: every named scenario was already stored exactly so.
    const keys = records.map((r) => String((r as { key?: unknown }).key ?? ""));
    return merged ? changes(evaluationId, merged) : changes(evaluationId, { unchanged: keys });
  }
}
