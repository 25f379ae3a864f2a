// Why a job gave up without running its agent: the worker is stopping. Its jobs waiting for an
// agent slot would otherwise each run a replay after SIGTERM (a batch holds up to 8 jobs per slot),
// and a drain of many replays outlasts an orchestrator's grace period. The job is left
// unacknowledged, so it is delivered again, as it would be after a kill.
export class WorkerStopping extends Error {
  constructor() {
    super("the worker is stopping: job left to be delivered again");
    this.name = "WorkerStopping";
  }
}
