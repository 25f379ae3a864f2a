// Every read-model table with the key that orders its rows: rebuild truncates them, the checksum
// reads them in this order.
export const READ_MODEL_TABLES = [
  { name: "catalogs", orderBy: "tenant, key" },
  { name: "evaluations", orderBy: "id" },
  { name: "evaluation_scenarios", orderBy: "evaluation_id, key" },
  { name: "runs", orderBy: "id" },
  { name: "results", orderBy: "run_id, n" },
  { name: "fix_items", orderBy: "run_id, ordinal" },
  { name: "model_summaries", orderBy: "run_id, label" },
  { name: "comparisons", orderBy: "run_id" },
  { name: "verdicts", orderBy: "run_id" },
  { name: "agents", orderBy: "tenant, name" },
  { name: "agent_releases", orderBy: "tenant, agent, version" },
  { name: "usage_meters", orderBy: "tenant, month, kind" },
] as const;

export type ReadModelTable = (typeof READ_MODEL_TABLES)[number]["name"];
