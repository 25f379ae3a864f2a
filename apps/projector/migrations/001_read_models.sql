-- Read models of the projector (apps/projector). Every row carries its tenant; every query filters
-- on it. Timestamps come from event metadata (recorded_at), never now(), so a rebuild from the log
-- writes identical rows.

CREATE TABLE catalogs (
  tenant text NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  description text,
  digest text NOT NULL,
  canonical_yaml text NOT NULL,
  source jsonb NOT NULL,
  metadata jsonb NOT NULL,
  products jsonb NOT NULL,
  scenario_count integer NOT NULL,
  imported_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, key)
);

CREATE TABLE evaluations (
  id text PRIMARY KEY,
  tenant text NOT NULL,
  agent text NOT NULL,
  name text NOT NULL,
  judge jsonb NOT NULL,
  criteria jsonb NOT NULL,
  threshold double precision NOT NULL,
  compare_models jsonb NOT NULL,
  catalog jsonb,
  external jsonb,
  archived boolean NOT NULL DEFAULT false,
  archived_at timestamptz,
  scenario_count integer NOT NULL DEFAULT 0,
  run_count integer NOT NULL DEFAULT 0,
  latest_run_id text,
  latest_run_number integer,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX evaluations_tenant_created ON evaluations (tenant, created_at DESC, id DESC);

CREATE TABLE evaluation_scenarios (
  evaluation_id text NOT NULL,
  key text NOT NULL,
  tenant text NOT NULL,
  prompt text NOT NULL,
  "group" text,
  group_name text,
  notes text,
  expectations jsonb NOT NULL,
  data jsonb NOT NULL,
  position integer NOT NULL,
  enabled boolean NOT NULL,
  PRIMARY KEY (evaluation_id, key)
);
CREATE INDEX evaluation_scenarios_group ON evaluation_scenarios (evaluation_id, "group");

CREATE TABLE runs (
  id text PRIMARY KEY,
  tenant text NOT NULL,
  evaluation_id text NOT NULL,
  number integer NOT NULL,
  origin text NOT NULL,
  status text NOT NULL,
  external boolean NOT NULL DEFAULT false,
  selection jsonb,
  models jsonb NOT NULL DEFAULT '[]',
  criteria jsonb NOT NULL DEFAULT '[]',
  judge jsonb,
  judge_label text,
  threshold double precision,
  release jsonb,
  metadata jsonb NOT NULL DEFAULT '{}',
  tools jsonb NOT NULL DEFAULT '[]',
  catalog jsonb,
  import_source jsonb,
  total integer NOT NULL DEFAULT 0,
  completed integer NOT NULL DEFAULT 0,
  passed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  errored integer NOT NULL DEFAULT 0,
  agent_input_tokens bigint NOT NULL DEFAULT 0,
  agent_output_tokens bigint NOT NULL DEFAULT 0,
  agent_cost double precision,
  judge_calls integer NOT NULL DEFAULT 0,
  judge_input_tokens bigint NOT NULL DEFAULT 0,
  judge_output_tokens bigint NOT NULL DEFAULT 0,
  judge_cost double precision,
  summary jsonb,
  completion_requested boolean NOT NULL DEFAULT false,
  error_message text,
  failure_pairs jsonb,
  scheduled_at timestamptz NOT NULL,
  started_at timestamptz,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX runs_evaluation_number ON runs (evaluation_id, number DESC);
CREATE INDEX runs_tenant ON runs (tenant, id);

CREATE TABLE results (
  run_id text NOT NULL,
  n integer NOT NULL,
  tenant text NOT NULL,
  scenario_key text NOT NULL,
  "group" text,
  model_label text NOT NULL,
  provider text,
  model text,
  position integer NOT NULL,
  status text NOT NULL,
  score double precision,
  scores jsonb,
  fault text,
  recommendation text,
  diagnosis jsonb,
  answer text,
  tool_calls jsonb,
  error text,
  duration_ms double precision,
  input_tokens bigint,
  output_tokens bigint,
  cost double precision,
  cost_source text,
  replay_metadata jsonb,
  scenario jsonb NOT NULL,
  judge_exchanges jsonb,
  judge_calls integer NOT NULL DEFAULT 0,
  judge_input_tokens bigint NOT NULL DEFAULT 0,
  judge_output_tokens bigint NOT NULL DEFAULT 0,
  judge_cost double precision,
  replayed_at timestamptz,
  scored_at timestamptz,
  PRIMARY KEY (run_id, n)
);
CREATE INDEX results_run_model ON results (run_id, model_label, n);
CREATE INDEX results_run_status ON results (run_id, status, n);
CREATE INDEX results_run_fault ON results (run_id, fault, n) WHERE fault IS NOT NULL;

CREATE TABLE fix_items (
  run_id text NOT NULL,
  ordinal integer NOT NULL,
  tenant text NOT NULL,
  kind text NOT NULL,
  fault text NOT NULL,
  models jsonb NOT NULL,
  item jsonb NOT NULL,
  PRIMARY KEY (run_id, ordinal)
);

CREATE TABLE model_summaries (
  run_id text NOT NULL,
  label text NOT NULL,
  tenant text NOT NULL,
  position integer NOT NULL,
  provider text,
  model text,
  pass_rate double precision,
  avg_score double precision,
  summary jsonb NOT NULL,
  PRIMARY KEY (run_id, label)
);

CREATE TABLE comparisons (
  run_id text PRIMARY KEY,
  tenant text NOT NULL,
  comparison jsonb NOT NULL,
  seed bigint,
  resamples integer,
  confidence double precision,
  recorded_at timestamptz NOT NULL
);

CREATE TABLE verdicts (
  run_id text PRIMARY KEY,
  tenant text NOT NULL,
  winner text,
  rationale text,
  judge text,
  judge_label text,
  ranking jsonb NOT NULL,
  judge_exchange jsonb,
  recorded_at timestamptz NOT NULL
);

CREATE TABLE projector_checkpoints (
  name text PRIMARY KEY,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL
);
