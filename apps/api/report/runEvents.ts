// A run's whole history from the log: its own stream plus its pairs' streams (read with one
// filtered scan of the log, apps/worker pairEvents.ts), merged in log order, and folded into the
// record a Report is rebuilt from. Tenancy is checked here: a run of another tenant answers
// exactly like a missing one, and as fast (decided from the TenantIndex before its stream is read).
import {
  eventRegistry, evaluationStream, importedRunId, ownedByAnotherTenant, readWholeStream, runStream, isValidId,
  type DomainEvent, type EventData, type EventStore, type RecordedEvent, type TenantIndex,
} from "@verdict/domain";
import { comparePositions } from "@verdict/infra/eventstore";
import { readPairEvents, type RunRecord } from "@verdict/worker";
import { notFound } from "../server/errors.js";

export interface RunHistory {
  runId: string;
  tenant: string;
  /** Every event of the run and its pairs, in log order. */
  events: RecordedEvent[];
  parsed: DomainEvent[];
  /** Engine and external runs; null for an imported report. */
  record: RunRecord | null;
  imported: EventData<"ReportImported"> | null;
  /**
   * The criterion keys in their order: the run's own (RunStarted), or for an imported run its
   * evaluation's (fixed when it was created), the order its document's scores lost in jsonb.
   */
  criterionKeys: string[];
  status: "running" | "completed" | "failed";
  failure: EventData<"RunFailed"> | null;
}

interface RunHistoryOptions {
  /** The argument the caller was given the id in, named by NOT_FOUND (default `id`). */
  field?: string;
  /** Who owns which run (the read models); without it, tenancy is decided from the stream alone. */
  tenants?: TenantIndex;
}

/** The run's events for this tenant, or NOT_FOUND (missing, malformed id or another tenant's). */
export async function loadRunHistory(store: EventStore, tenant: string, runId: string, options: RunHistoryOptions = {}): Promise<RunHistory> {
  const field = options.field ?? "id";
  if (!isValidId(runId) || (await ownedByAnotherTenant(options.tenants, "run", runId, tenant))) throw notFound("run", runId, field);
  const runEvents = await readWholeStream(store, runStream(runId));
  const first = runEvents[0] ? eventRegistry.parseRecorded(runEvents[0]) : null;
  if (!first || (first.type !== "RunStarted" && first.type !== "ReportImported") || first.data.tenant !== tenant) throw notFound("run", runId, field);
  const events = [...runEvents];
  if (first.type === "RunStarted") {
    const pairs = first.data.scenarios.length * first.data.models.length;
    events.push(...(await readPairEvents(store, { runId, after: runEvents[0].position, pairs })));
    events.sort((a, b) => comparePositions(a.position, b.position));
  }
  const parsed = events.map((e) => eventRegistry.parseRecorded(e));
  const criterionKeys = first.type === "RunStarted" ? first.data.criteria.map((c) => c.key) : await evaluationCriterionKeys(store, first.data.evaluation_id);
  return { runId, tenant, events, parsed, criterionKeys, ...fold(parsed) };
}

/** The evaluation's criterion keys, from its first event (criteria never change after it). */
export async function evaluationCriterionKeys(store: EventStore, evaluationId: string): Promise<string[]> {
  const [first] = await store.readStream(evaluationStream(evaluationId), { from: "start", direction: "forwards", limit: 1 });
  const created = first ? eventRegistry.parseRecorded(first) : null;
  return created?.type === "EvaluationCreated" ? created.data.criteria.map((c) => c.key) : [];
}

function fold(parsed: DomainEvent[]): Pick<RunHistory, "record" | "imported" | "status" | "failure"> {
  let started: EventData<"RunStarted"> | null = null;
  let imported: EventData<"ReportImported"> | null = null;
  let verdict: EventData<"VerdictRecorded"> | null = null;
  let comparison: EventData<"ComparisonRecorded"> | null = null;
  let failure: EventData<"RunFailed"> | null = null;
  let kpiAuthoring: EventData<"KpiAuthoringRecorded"> | null = null;
  let status: RunHistory["status"] = "running";
  const replays = new Map<number, EventData<"ReplayRecorded">>();
  const scored = new Map<number, EventData<"ResultScored">>();
  for (const event of parsed) {
    switch (event.type) {
      case "RunStarted": started = event.data; break;
      case "ReportImported": imported = event.data; status = "completed"; break;
      case "ReplayRecorded": replays.set(event.data.n, event.data); break;
      case "ResultScored": scored.set(event.data.n, event.data); break;
      case "VerdictRecorded": verdict = event.data; break;
      case "ComparisonRecorded": comparison = event.data; break;
      case "KpiAuthoringRecorded": kpiAuthoring = event.data; break;
      case "RunCompleted": status = "completed"; break;
      case "RunFailed": status = "failed"; failure = event.data; break;
      default: break;
    }
  }
  const record = started ? { started, kpiAuthoring, replays, scored, verdict, comparison } : null;
  return { record, imported, status, failure };
}

/**
 * The run a host's handle names (the guide's `run_id`): a run's id here, else a published run's
 * own run_id, which importReport keyed for the tenant (importedRunId). Neither found: the first
 * NOT_FOUND, naming the handle as given. `load` reads one run id (cached or not, as the caller reads).
 */
export async function loadByHandle<T>(tenant: string, handle: string, load: (runId: string) => Promise<T>): Promise<T> {
  try {
    return await load(handle);
  } catch (error) {
    if ((error as { apiCode?: unknown }).apiCode !== "NOT_FOUND") throw error;
    return load(importedRunId(tenant, handle)).catch(() => Promise.reject(error));
  }
}
