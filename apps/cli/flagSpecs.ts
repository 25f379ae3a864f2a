// The flags each `verdict` command takes, in one place: the commands parse with these, and a test
// checks `verdict help` shows each one (and no flag a command does not take).
import type { FlagSpec } from "./args.js";

export const FLAG_SPECS = {
  start: { values: ["port", "models"], booleans: ["exit"] },
  run: {
    values: [
      "catalog", "product", "set", "models", "agent", "judge", "tools", "prices", "format", "theme", "out", "gate", "concurrency", "replay-timeout",
      "release", "release-revision", "release-label",
    ],
    booleans: ["include-production-only", "quiet", "require-judge-scores"],
    repeatable: ["metadata"],
  },
  report: { values: ["format", "out", "tenant", "theme"], positionals: { min: 1, max: 1, names: "RUN_ID" } },
  "catalogs import": { values: ["tenant"], booleans: ["preview"], positionals: { min: 1, max: 1, names: "FILE (a catalog YAML)" } },
  "catalogs export": { values: ["tenant"], positionals: { min: 1, max: 2, names: "KEY (a catalog key)" } },
  // The guide's name for `report` (activeagent evals report RUN), the same command.
  "evals report": { values: ["format", "out", "tenant", "theme"], positionals: { min: 1, max: 1, names: "RUN_ID" } },
  "evals import": { values: ["evaluation", "tenant", "run-id", "url"], booleans: ["insecure-http"], positionals: { min: 1, max: 1, names: "FILE (a report envelope, report.json, or with --run-id a `verdict run --format json` report)" } },
  "evals clear-kpis": { values: ["tenant"], positionals: { min: 1, max: 1, names: "ID (an evaluation's id)" } },
  "keys create": { values: ["tenant", "role", "name"] },
  "keys list": { values: ["tenant"] },
  "keys revoke": { positionals: { min: 1, max: 1, names: "ID (a key id, as `verdict keys list` shows it)" } },
} as const satisfies Record<string, FlagSpec>;
