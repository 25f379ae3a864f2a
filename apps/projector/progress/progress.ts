// Run progress as published after each committed batch: small on purpose (it travels through
// NOTIFY, whose payload is limited); subscribers re-read details from the read models.
export interface LatestResult {
  scenario_key: string;
  model_label: string;
  status: string;
  score: number | null;
  fault: string | null;
}

/** A run's last scored result (one `?`: the run id): what progress names when a batch scored none of the run's pairs. */
export const LATEST_RESULT_SQL = `SELECT scenario_key, model_label, status, score, fault FROM results WHERE run_id = ? AND status <> 'pending'
  ORDER BY scored_at DESC NULLS LAST, n DESC LIMIT 1`;

export type RunStatus = "PENDING" | "RUNNING" | "COMPLETED" | "FAILED";

export interface RunProgress {
  run_id: string;
  tenant: string;
  status: RunStatus;
  total: number;
  completed: number;
  passed: number;
  failed: number;
  errored: number;
  latest_result: LatestResult | null;
}

export type ProgressListener = (progress: RunProgress) => void;
/** Progress may have been published and lost (the bus was reconnecting): re-read where runs are. */
export type ProgressGapListener = () => void;

/** Where the projector announces progress and the API listens (in-process or LISTEN/NOTIFY). */
export interface ProgressBus {
  publish(progress: RunProgress): Promise<void>;
  /**
   * Listens to one run; returns the function that stops listening. `onGap` is called when
   * messages may have been lost since the last one (a bus that reconnects calls it once it
   * listens again); a bus that cannot lose messages never calls it.
   */
  subscribe(runId: string, listener: ProgressListener, onGap?: ProgressGapListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
