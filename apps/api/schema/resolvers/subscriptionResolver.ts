// Live views of a run: progress as the projector commits batches (ProgressBus), and the run's
// own events as the log receives them (EventStore subscription). Both start with where the run
// is now and finish once it has ended.
import { Arg, Ctx, ID, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import { z } from "zod";
import { isBlank, isValidId, ownedByAnotherTenant, runStream } from "@verdict/domain";
import type { RunProgress } from "@verdict/projector";
import type { ApiContext } from "../../server/context.js";
import { notFound } from "../../server/errors.js";
import { listenerIterator } from "../../server/listenerIterator.js";
import { resultStatusOf, runStatusOf } from "../types/enums.js";
import { AuditEvent } from "../types/report.js";
import { auditEvent } from "./auditEvents.js";
import { RunProgressNode } from "../types/run.js";
import { validInput } from "./commandSupport.js";

type Data = SubscribeResolverData<unknown, { runId: string; after?: string | null }, ApiContext>;

/** A blank runId is VALIDATION naming it (it read as the run "" not found: `run  not found`). */
const RUN_ID = z.object({ runId: z.string().refine((id) => !isBlank(id), "must not be blank") });

/**
 * runEvents' `after`: an event's position as the events carry it (decimal digits, from 0), so a
 * client that reconnects gets only what came after the last one it saw. Past the run's last
 * event is allowed: the subscription waits for the next.
 */
const AFTER = z.object({ after: z.string().regex(/^(0|[1-9][0-9]{0,39})$/, "must be an event's position: a whole number from 0, as text (\"41\"), as runEvents and runAudit give it").nullish() });

const ENDED = new Set(["COMPLETED", "FAILED"]);
const LAST_EVENTS = new Set(["RunCompleted", "RunFailed", "ReportImported"]);
/**
 * Events a runEvents subscription reads from the log at once. The page read ahead is held until
 * its client has taken it: at the store's default (500, up to 4 MB) a hundred subscriptions whose
 * client stopped reading held 1.3 GB before any back-pressure could apply.
 */
const EVENTS_PAGE = 32;

function progressNode(p: RunProgress): RunProgressNode {
  const latest = p.latest_result;
  return {
    runId: p.run_id,
    status: runStatusOf(p.status),
    total: p.total,
    completed: p.completed,
    passed: p.passed,
    failed: p.failed,
    errored: p.errored,
    latestResult: latest
      ? { scenarioKey: latest.scenario_key, modelLabel: latest.model_label, status: resultStatusOf(latest.status), score: latest.score, fault: latest.fault }
      : null,
  };
}

// Both check the run before returning a source, so a missing (or another tenant's) run is an
// error result of the subscription, not a broken stream.
async function subscribeProgress({ args, context }: Data): Promise<AsyncIterable<RunProgress>> {
  const { readModels, progress } = context.deps;
  validInput(RUN_ID, { runId: args.runId }, "");
  if (!(await readModels.getRun(context.principal.tenant, args.runId))) throw notFound("run", args.runId, "runId");
  return listenerIterator<RunProgress>(async (sink) => {
    const tenant = context.principal.tenant;
    let last: RunProgress | null = null;
    let lastFrame: string | null = null;
    const deliver = (p: RunProgress) => {
      // A batch that changed nothing the frame shows (one that only recorded a replay) is not
      // sent again: the client already has that frame.
      const frame = JSON.stringify(progressNode(p));
      if (frame === lastFrame) return;
      lastFrame = frame;
      last = p;
      void sink.push(p);
      if (ENDED.has(runStatusOf(p.status))) sink.end();
    };
    // Whether `p` shows more than what was last sent: progress never goes back.
    const advances = (p: RunProgress) =>
      !last || p.completed > last.completed || (ENDED.has(runStatusOf(p.status)) && !ENDED.has(runStatusOf(last.status)));
    // Listen before reading the snapshot, so nothing committed in between is missed (a run that
    // ended there was announced before anyone listened, and the subscription waited for ever).
    // What arrives before the snapshot is held, and only what the snapshot does not already
    // show is sent after it. When the bus says messages may have been lost (its connection
    // dropped and came back), the run is read again and sent if it has moved on: otherwise a
    // run that ended during the gap would leave this subscription waiting for ever.
    let early: RunProgress[] | null = [];
    let gapBeforeSnapshot = false;
    const reread = () => {
      readModels.progress(tenant, args.runId).then(
        (now) => {
          if (now && advances(now)) deliver(now);
        },
        () => undefined, // the read database is still coming back; the next message or gap will tell
      );
    };
    const stop = await progress.subscribe(
      args.runId,
      (p) => {
        if (p.tenant !== tenant) return;
        if (early) early.push(p);
        else deliver(p);
      },
      () => {
        if (early) gapBeforeSnapshot = true; // the snapshot may have been read before the gap
        else reread();
      },
    );
    try {
      const now = await readModels.progress(tenant, args.runId);
      if (!now) throw notFound("run", args.runId, "runId");
      const held = early;
      early = null;
      deliver(now);
      for (const p of held) if (advances(p)) deliver(p);
      if (gapBeforeSnapshot) reread();
    } catch (error) {
      await stop();
      throw error;
    }
    return stop;
    // Each is the whole progress: a client behind gets the newest instead of every one queued.
  }, { whenFull: "dropOldest" });
}

async function subscribeEvents({ args, context }: Data): Promise<AsyncIterable<AuditEvent>> {
  const { store } = context.deps;
  const tenant = context.principal.tenant;
  validInput(RUN_ID, { runId: args.runId }, "");
  const after = validInput(AFTER, { after: args.after }, "").after;
  // Events at or before this position were seen by the client already (-1: none were).
  const seen = after == null ? -1n : BigInt(after);
  // Another tenant's run answers before its first (large) event is read, as fast as a missing one.
  if (!isValidId(args.runId) || (await ownedByAnotherTenant(context.deps.readModels, "run", args.runId, tenant))) throw notFound("run", args.runId, "runId");
  const runId = runStream(args.runId);
  const [first] = await store.readStream(runId, { from: "start", limit: 1 });
  if (!first || (first.data as { tenant?: unknown }).tenant !== tenant) throw notFound("run", args.runId, "runId");
  return listenerIterator<AuditEvent>(async (sink) => {
    const controller = new AbortController();
    const pairPrefix = `result-${args.runId}.`;
    void (async () => {
      try {
        // From the run's first event, in log order: the n-th is runAudit's n-th (its position).
        // Those up to `after` are counted, not sent: a position is a place among the run's
        // events, so the log is read from the run's start either way.
        let ordinal = 0;
        for await (const event of store.subscribeAll({ filter: { streamPrefixes: [runId, pairPrefix] }, signal: controller.signal, pageSize: EVENTS_PAGE })) {
          if (event.streamId !== runId && !event.streamId.startsWith(pairPrefix)) continue;
          const position = ordinal++;
          // Waits while the client is behind: the log is read no further than it has taken.
          if (BigInt(position) > seen) await sink.push(auditEvent(event, position));
          if (event.streamId === runId && LAST_EVENTS.has(event.type)) break;
        }
        sink.end();
      } catch (error) {
        if (controller.signal.aborted) sink.end();
        else sink.fail(error);
      }
    })();
    return () => controller.abort();
  });
}

@Resolver()
export class SubscriptionResolver {
  @Subscription(() => RunProgressNode, {
    subscribe: (data) => subscribeProgress(data as Data),
    description:
      "The run's progress now, then after every committed batch that changes it (never a frame equal to the one before), until it has ended. The first frame is always the current snapshot, so a client reconnects by subscribing again. A blank runId is VALIDATION.",
  })
  runProgress(@Root() progress: RunProgress, @Arg("runId", () => ID, { description: "The run's id (one of another tenant's is NOT_FOUND; a blank one is VALIDATION)." }) _runId: string, @Ctx() _context: ApiContext): RunProgressNode {
    return progressNode(progress);
  }

  @Subscription(() => AuditEvent, {
    subscribe: (data) => subscribeEvents(data as Data),
    description:
      "The run's events (run stream and pair streams) from the first, or after `after`, live, until it has ended. A blank runId is VALIDATION.",
  })
  runEvents(
    @Root() event: AuditEvent,
    @Arg("runId", () => ID, { description: "The run's id (one of another tenant's is NOT_FOUND; a blank one is VALIDATION)." }) _runId: string,
    @Arg("after", () => String, {
      nullable: true,
      description:
        "An event's `position` (as text, \"41\"): only the events after it are sent, then the live ones; to resume, pass the last position received. " +
        "Not a whole number from 0 is VALIDATION; past the run's last event, the subscription waits for the next (or ends at once for a run that has ended).",
    })
    _after: string | null,
    @Ctx() _context: ApiContext,
  ): AuditEvent {
    return event;
  }
}
