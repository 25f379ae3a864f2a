// What every mutation shares: write access, the command options (tenant, actor, clock, ids),
// tenancy checks against the write side (streams; the read models only answer another tenant's
// id early, see TenantIndex) and read-your-writes.
import {
  evaluationAggregate, evaluationStream, isValidId, loadAggregate, ownedByAnotherTenant,
  type EvaluationState, type EventStore, type HandleOptions, type LogPosition, type TenantIndex,
} from "@verdict/domain";
import type { z } from "zod";
import { requireWrite, type ApiContext } from "../../server/context.js";
import { ApiError, classify, notFound } from "../../server/errors.js";

export function commandOptions(context: ApiContext): Omit<HandleOptions<never>, "decideContext"> {
  requireWrite(context);
  const { principal, deps } = context;
  return { clock: deps.clock, ids: deps.ids, context: { tenant: principal.tenant, actor: `api-key:${principal.keyId}` } };
}

/** The evaluation as its stream folds, when it is this tenant's; otherwise NOT_FOUND. */
export async function ownEvaluation(context: ApiContext, evaluationId: string): Promise<EvaluationState> {
  return tenantEvaluation(context.deps.store, context.principal.tenant, evaluationId, context.deps.readModels);
}

/** ownEvaluation for a caller without an API context (the CLI writes to the store itself, without `tenants`). */
export async function tenantEvaluation(store: EventStore, tenant: string, evaluationId: string, tenants?: TenantIndex): Promise<EvaluationState> {
  if (!isValidId(evaluationId) || (await ownedByAnotherTenant(tenants, "evaluation", evaluationId, tenant))) {
    throw notFound("evaluation", evaluationId, "evaluationId");
  }
  const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream(evaluationId));
  if (!state.exists || state.tenant !== tenant) throw notFound("evaluation", evaluationId, "evaluationId");
  return state;
}

/**
 * Waits until the read models include what was just appended, so the answer can be read back.
 * When they do not catch up (projector stopped or behind), the write has happened all the same:
 * UNAVAILABLE says what was recorded, so the caller does not send it again as if it had failed.
 */
export async function afterWrite(context: ApiContext, position: LogPosition | null, recorded: string): Promise<void> {
  if (!position || !context.deps.waitForProjection) return;
  try {
    await context.deps.waitForProjection(position);
  } catch (error) {
    context.deps.log?.("read models did not catch up after a write", error);
    throw new ApiError(
      "UNAVAILABLE",
      `${recorded} was recorded, but the read models have not caught up with it yet (is the projector running?); read it back later rather than sending it again`,
    );
  }
}

/**
 * afterWrite for a command that may change nothing, whose answer is read from the read models: a
 * no-op waits for the stream's last event instead. Retried after UNAVAILABLE (the first try was
 * recorded, the projector behind), it answered success with what the read models still held,
 * the opposite of what the log says.
 */
export async function afterCommand(context: ApiContext, handled: { streamId: string; position: LogPosition | null }, recorded: string): Promise<void> {
  if (handled.position) return afterWrite(context, handled.position, recorded);
  const [last] = await context.deps.store.readStream(handled.streamId, { from: "end", direction: "backwards", limit: 1 });
  await afterWrite(context, last?.position ?? null, recorded);
}

/** Validates a mutation's input at the edge: the first problem names its field. */
export function validInput<S extends z.ZodType>(schema: S, input: unknown, prefix: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
  throw new ApiError("VALIDATION", `${field}: ${issue.message}`, field);
}

/**
 * Runs a mutation's work with its errors naming the arguments the client sent. The commands'
 * rules name their fields as the guide's JSON does (`scenario_key`, `compare_models`), and some
 * checks name an input field bare (`judgeModel`, `compareModels[1]`): `argumentOf` maps the first
 * part of such a field to the argument's path (`scenarioKey`, `input.compareModels`), so `extensions.field`
 * (and the message, where it names the field) names what the client can find in its request.
 */
export async function namingArguments<T>(argumentOf: Record<string, string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const known = classify(error);
    const named = known?.field;
    // The field's first part: `compareModels` of `compareModels[1]`, `report` of `report.models`.
    const head = named?.split(/[.[]/, 1)[0] ?? "";
    if (!known || named === undefined || !Object.hasOwn(argumentOf, head)) throw error;
    const field = argumentOf[head] + named.slice(head.length);
    throw new ApiError(known.code, renamedIn(known.message, named, field), field);
  }
}

/** `message` with the field `from` named `to` where it names it: `from: …` or `…: from: …`. */
function renamedIn(message: string, from: string, to: string): string {
  if (message.startsWith(`${from}: `)) return to + message.slice(from.length);
  const at = message.indexOf(`: ${from}: `);
  return at < 0 ? message : message.slice(0, at + 2) + to + message.slice(at + 2 + from.length);
}
