// Stream `usage-<tenant>.<YYYY-MM>`: the month's meter. MeterUsage is decided by startRun and
// importReport (twoStreamCommands.ts) from the same reads as the run it meters, and appended with
// the exact version read, so two starts that both fit only alone cannot both be admitted: the
// second loses the race, reads the first's meter and is refused (or fits, and is metered).
import { z } from "zod";
import type { Aggregate } from "../aggregate.js";
import type { DomainEvent, EventInput } from "../../events/registry.js";
import { idSchema } from "../../events/shared.js";
import { MONTH_PATTERN, usageKind, type UsageKind } from "../../events/usageEvents.js";
import { assertExecutionEnabled, limitOf, PlanLimitError, UNLIMITED_PLAN, type Plan } from "./plan.js";

export const MeterUsage = z.object({
  type: z.literal("MeterUsage"),
  kind: usageKind,
  /** The run's whole quantity (all its pairs, or 1 report): a retry states it again, not a delta. */
  quantity: z.number().int().min(1),
  run_id: idSchema,
  evaluation_id: idSchema,
  month: z.string().regex(MONTH_PATTERN, "must be a month as YYYY-MM"),
});
export type MeterUsage = z.output<typeof MeterUsage>;

export interface UsageState {
  used: Record<UsageKind, number>;
  /** What each run was metered so far: a retried run is not metered again. */
  metered: ReadonlyMap<string, number>;
}

export interface UsageContext {
  plan?: Plan;
}

export function initialUsageState(): UsageState {
  return { used: { execution: 0, evaluation_report: 0 }, metered: new Map() };
}

function evolve(state: UsageState, event: DomainEvent): UsageState {
  if (event.type !== "UsageMetered") return state;
  const { kind, quantity, run_id } = event.data;
  const metered = new Map(state.metered);
  metered.set(run_id, (metered.get(run_id) ?? 0) + quantity);
  return { used: { ...state.used, [kind]: state.used[kind] + quantity }, metered };
}

function decide(state: UsageState, command: MeterUsage, context: UsageContext): EventInput[] {
  const plan = context.plan ?? UNLIMITED_PLAN;
  if (command.kind === "execution") assertExecutionEnabled(plan);
  const requested = command.quantity - (state.metered.get(command.run_id) ?? 0);
  // Already admitted (a retry, or the same run after a lost race elsewhere): nothing to meter,
  // nothing to refuse, even should the month be over its limit now.
  if (requested <= 0) return [];
  const limit = limitOf(plan, command.kind);
  const used = state.used[command.kind];
  if (limit !== null && used + requested > limit) throw new PlanLimitError({ kind: command.kind, limit, used, requested });
  const { type: _type, ...data } = command;
  return [{ type: "UsageMetered", data: { ...data, quantity: requested } }];
}

export const usageAggregate: Aggregate<UsageState, MeterUsage, UsageContext> = {
  name: "usage",
  commandSchema: MeterUsage,
  initialState: initialUsageState,
  evolve,
  decide: (state, command, context) => decide(state, command, context),
  // Re-decided on fresh state: the limit is checked again against what others metered meanwhile.
  retryOnConflict: () => true,
};
