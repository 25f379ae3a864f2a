// What one batch accumulates besides the SQL it runs in event order: result rows are written in
// bulk at the end (one statement per kind), and the runs the batch touched are recounted and
// their progress published after the commit.
import type { DomainEvent, RecordedEvent } from "@verdict/domain";
import type { LatestResult } from "../progress/progress.js";

export interface Envelope {
  recorded: RecordedEvent;
  event: DomainEvent;
  tenant: string;
  /** When the domain recorded the event (metadata.recorded_at): the only clock read models use. */
  at: string;
}

interface PendingResultRow {
  run_id: string;
  n: number;
  tenant: string;
  scenario_key: string;
  group: string | null;
  model_label: string;
  provider: string | null;
  model: string | null;
  position: number;
  scenario: unknown;
}

interface ReplayUpdate {
  run_id: string;
  n: number;
  answer: string | null;
  tool_calls: unknown;
  error: string | null;
  duration_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost: number | null;
  cost_source: string;
  replay_metadata: unknown;
  replayed_at: string;
}

interface ScoreUpdate {
  run_id: string;
  n: number;
  status: string;
  score: number | null;
  scores: unknown;
  fault: string | null;
  recommendation: string | null;
  diagnosis: unknown;
  judge_exchanges: unknown;
  judge_calls: number;
  judge_input_tokens: number;
  judge_output_tokens: number;
  judge_cost: number | null;
  judge_by_kind: unknown;
  judge_model: string | null;
  /** meter (the platform's judge exchanges), reported (the replay's own judge_usage), or null: no judge usage. */
  judge_source: string | null;
  scored_at: string;
}

export class Batch {
  readonly pendingResults: PendingResultRow[] = [];
  readonly replays: ReplayUpdate[] = [];
  readonly scores: ScoreUpdate[] = [];
  /**
   * Runs whose counts, usage or status this batch may have changed: progress is published for
   * them, and they are recounted from all their rows, unless the only change is replays and
   * scores (resultRuns): those add what their rows changed.
   */
  readonly touchedRuns = new Set<string>();
  /** Runs this batch recorded replays or scores of. */
  readonly resultRuns = new Set<string>();
  /** The last result scored in this batch, per run, for the progress message. */
  readonly latestResult = new Map<string, LatestResult>();
  /** Completed runs whose summary carried no per-model figures: computed from their results. */
  readonly summariesToCompute = new Set<string>();
}
