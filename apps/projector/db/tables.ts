// Every read-model table with the key that orders its rows: rebuild truncates them, the checksum
// reads them in this order. Text keys in code-point order (COLLATE "C"), whatever the read
// database's collation: ordered by it, a database created under an ICU or glibc locale (de-DE:
// "ägent" before "Zulu", "a b" after "Agent-a") digested the same rows in another order than
// one in C or embedded PGlite, and the same log gave two checksums.
export const READ_MODEL_TABLES = [
  { name: "catalogs", orderBy: 'tenant COLLATE "C", key COLLATE "C"' },
  { name: "evaluations", orderBy: 'id COLLATE "C"' },
  { name: "evaluation_scenarios", orderBy: 'evaluation_id COLLATE "C", key COLLATE "C"' },
  { name: "runs", orderBy: 'id COLLATE "C"' },
  { name: "results", orderBy: 'run_id COLLATE "C", n' },
  { name: "fix_items", orderBy: 'run_id COLLATE "C", ordinal' },
  { name: "model_summaries", orderBy: 'run_id COLLATE "C", label COLLATE "C"' },
  { name: "comparisons", orderBy: 'run_id COLLATE "C"' },
  { name: "verdicts", orderBy: 'run_id COLLATE "C"' },
  { name: "agents", orderBy: 'tenant COLLATE "C", name COLLATE "C"' },
  { name: "agent_releases", orderBy: 'tenant COLLATE "C", agent COLLATE "C", version' },
  { name: "usage_meters", orderBy: 'tenant COLLATE "C", month COLLATE "C", kind COLLATE "C"' },
] as const;

export type ReadModelTable = (typeof READ_MODEL_TABLES)[number]["name"];
