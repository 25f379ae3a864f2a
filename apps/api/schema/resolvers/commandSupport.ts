// What every mutation shares: write access, the command options (tenant, actor, clock, ids),
// tenancy checks against the write side (streams; the read models only answer another tenant's
// id early, see TenantIndex) and read-your-writes.
import {
  evaluationAggregate, evaluationStream, isValidId, loadAggregate, ownedByAnotherTenant,
  type EvaluationState, type EventStore, type HandleOptions, type LogPosition, type TenantIndex,
} from "@verdict/domain";
import type { z } from "zod";
import { requireWrite, type ApiContext } from "../../server/context.js";
import { ApiError, notFound } from "../../server/errors.js";

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

/** Validates a mutation's input at the edge: the first problem names its field. */
export function validInput<S extends z.ZodType>(schema: S, input: unknown, prefix: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
  throw new ApiError("VALIDATION", `${field}: ${issue.message}`, field);
}
