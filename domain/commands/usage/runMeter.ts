// What a run about to be written meters (reference-platform #38, §3 rule 20): a started run
// (engine or external) the pairs it will replay, `execution` x scenarios x models, counted before
// any replay runs, so a failing replay is counted too; a newly stored report one
// `evaluation_report`. Decided from a read of the tenant's usage stream for the month of the
// command's clock, with the run's other two reads and before anything is written.
import type { EventStore } from "../../ports/eventStore.js";
import type { DomainEvent } from "../../events/registry.js";
import { usageMonth, usageStream } from "../../events/streams.js";
import type { UsageKind } from "../../events/usageEvents.js";
import { decideEvents, loadAggregate, type Decision, type HandleOptions } from "../handleCommand.js";
import type { Plan } from "./plan.js";
import { usageAggregate, type UsageState } from "./usageAggregate.js";

export interface RunMeter {
  streamId: string;
  loaded: { state: UsageState; version: bigint | null };
  decision: Decision;
}

/** The kind and quantity the run's first event stands for, or null when it writes none (a duplicate import). */
function meteredBy(runEvents: readonly DomainEvent[]): { kind: UsageKind; quantity: number } | null {
  const first = runEvents[0];
  if (first?.type === "RunStarted") return { kind: "execution", quantity: first.data.scenarios.length * first.data.models.length };
  if (first?.type === "ReportImported") return { kind: "evaluation_report", quantity: 1 };
  return null;
}

interface MeterRequest {
  tenant: string;
  run_id: string;
  evaluation_id: string;
  now: Date;
  runEvents: readonly DomainEvent[];
}

/**
 * Reads the month's usage stream and decides the meter for a run whose events are `runEvents`:
 * refused (PlanLimitError, execution disabled) by the plan, or null when the run writes nothing.
 */
export async function decideRunMeter(
  store: EventStore,
  request: MeterRequest,
  options: Pick<HandleOptions<never>, "clock" | "ids" | "context" | "registry"> & { plan?: Plan },
): Promise<RunMeter | null> {
  const meter = meteredBy(request.runEvents);
  if (!meter) return null;
  const month = usageMonth(request.now);
  const streamId = usageStream(request.tenant, month);
  const loaded = await loadAggregate(store, usageAggregate, streamId, options.registry);
  const command = { type: "MeterUsage" as const, ...meter, run_id: request.run_id, evaluation_id: request.evaluation_id, month };
  const decision = decideEvents(usageAggregate, loaded.state, command, { now: request.now, streamId, plan: options.plan }, options);
  return { streamId, loaded, decision };
}
