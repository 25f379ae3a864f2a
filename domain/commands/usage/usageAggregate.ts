// Stream `usage-<tenant>.<YYYY-MM>`: the month's meter. MeterUsage is decided by startRun and
// importReport (twoStreamCommands.ts) from the same reads as the run it meters, and appended with
// the exact version read, so two starts that both fit only alone cannot both be admitted: the
// second loses the race, reads the first's meter and is refused (or fits, and is metered).
import { z } from "zod";
import type { Aggregate } from "../aggregate.js";
import type { DomainEvent, EventInput } from "../../events/registry.js";
import { usageMeterFields, type UsageKind } from "../../events/usageEvents.js";
import { assertExecutionEnabled, limitOf, PlanLimitError, UNLIMITED_PLAN, type Plan } from "./plan.js";

/** The event's fields; `quantity` is the run's whole quantity (all its pairs, or 1 report): a retry states it again, not a delta. */
export const MeterUsage = z.object({ type: z.literal("MeterUsage"), ...usageMeterFields });
export type MeterUsage = z.output<typeof MeterUsage>;

/**
 * The meters of one usage stream, in stream order, shared by every state folded from that stream:
 * folding an event appends it here (O(1)) instead of copying a map per event, which made a month
 * of 5,000 meters cost a second of CPU per start. A state sees only the first `count` entries, so
 * states at different versions share one log. A state folded with an event other than the one
 * the log already holds at its position (a fold of something never appended) gets its own copy.
 */
class MeterLog {
  private readonly entries: { key: string; quantity: number }[] = [];
  private readonly positions = new Map<string, number[]>();

  /** Records the `position`th meter; false when the log already holds a different one there. */
  record(position: number, key: string, quantity: number): boolean {
    if (position < this.entries.length) {
      const held = this.entries[position];
      return held.key === key && held.quantity === quantity;
    }
    if (position > this.entries.length) return false;
    this.entries.push({ key, quantity });
    const at = this.positions.get(key);
    if (at) at.push(position);
    else this.positions.set(key, [position]);
    return true;
  }

  /** What `key` was metered in the first `count` meters. */
  meteredWithin(key: string, count: number): number {
    let total = 0;
    for (const position of this.positions.get(key) ?? []) if (position < count) total += this.entries[position].quantity;
    return total;
  }

  /** A log of its own holding the first `count` meters. */
  copy(count: number): MeterLog {
    const copy = new MeterLog();
    for (let i = 0; i < count; i++) copy.record(i, this.entries[i].key, this.entries[i].quantity);
    return copy;
  }
}

export interface UsageState {
  used: Record<UsageKind, number>;
  /** What each (kind, run) was metered so far, in `meters`' first `count` entries: a retried run is not metered again. */
  meters: MeterLog;
  count: number;
}

/** The key a run's meter is found by: a run id is metered once per kind. */
function meterKey(kind: UsageKind, runId: string): string {
  return `${kind}\u0000${runId}`;
}

/** What `runId` was metered of `kind` in `state`. */
export function meteredOf(state: UsageState, kind: UsageKind, runId: string): number {
  return state.meters.meteredWithin(meterKey(kind, runId), state.count);
}

export interface UsageContext {
  plan?: Plan;
}

export function initialUsageState(): UsageState {
  return { used: { execution: 0, evaluation_report: 0 }, meters: new MeterLog(), count: 0 };
}

function evolve(state: UsageState, event: DomainEvent): UsageState {
  if (event.type !== "UsageMetered") return state;
  const { kind, quantity, run_id } = event.data;
  const key = meterKey(kind, run_id);
  let meters = state.meters;
  if (!meters.record(state.count, key, quantity)) {
    meters = meters.copy(state.count);
    meters.record(state.count, key, quantity);
  }
  return { used: { ...state.used, [kind]: state.used[kind] + quantity }, meters, count: state.count + 1 };
}

function decide(state: UsageState, command: MeterUsage, context: UsageContext): EventInput[] {
  const plan = context.plan ?? UNLIMITED_PLAN;
  if (command.kind === "execution") assertExecutionEnabled(plan);
  const requested = command.quantity - meteredOf(state, command.kind, command.run_id);
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
