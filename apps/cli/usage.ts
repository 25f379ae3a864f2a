// `verdict help`: every command, its flags, and the environment it reads. `verdict CMD --help`
// prints that command's own section, so each is kept apart and USAGE is put together from them.
import type { FLAG_SPECS } from "./flagSpecs.js";

type CommandName = keyof typeof FLAG_SPECS;

/** Each command's help: its synopsis line, then what it does, indented. */
export const COMMAND_USAGE: Record<CommandName, string> = {
  start: `  start [--exit] [--port N] [--models a,b,c]
      The platform in one process (API + projector + worker) on the embedded default, then
      the example evaluation: imports examples/support/catalog.yaml, runs it across three
      models (or --models), prints the GraphQL URL, an API key (valid while it serves), a
      subscription to paste and the report's paths. Serves until Ctrl-C; --exit stops after
      the run (no key or subscription then), exiting 1 when the run failed or every pair is a
      run_error. The example's scripted agent (examples/support/agent.yaml) answers only its
      own labels, so --models chooses among gpt-5-mini, claude-sonnet-4-5 and
      ollama/qwen3:8b: another label's pairs are run_errors ("no reply … on LABEL").`,
  run: `  run --catalog FILE --product P --set S --models a,b,c --agent scripted:FILE|module:FILE|chat:FILE|http:URL
      [--judge scripted:FILE|providers[:MODEL]|none] [--tools FILE] [--prices FILE] [--format md|json|html]
      [--out FILE] [--theme light|dark|auto] [--gate 0.8] [--concurrency 4] [--replay-timeout MS] [--include-production-only] [--quiet]
      [--require-judge-scores] [--release DIGEST [--release-revision REV] [--release-label LABEL]]
      [--metadata KEY=VALUE]...
      A local run with the library's Runner (no services): prints the report (Markdown by
      default) and exits 1 when the pass rate is below --gate, or when every pair is a
      run_error (the run failed: nothing was scored). --agent is the agent each pair is replayed
      through: scripted:FILE (replies from a YAML script), module:FILE (your JavaScript module
      exporting replay(scenario, model, { signal }), imported once, in this process), chat:FILE
      (Verdict drives each pair's model with the file's instructions and tool fixtures, on the
      provider keys in the environment) or http:URL (POSTs each pair to your service).
      --concurrency is how many pairs are replayed at once (default 4, a whole number >= 1): a
      module's replay or an HTTP agent is called that many times in parallel, so it must take
      overlapping calls. --tools names the agent's tools
      (tools: [{ name, description }], as examples/support/tools.yaml): a task that needs one
      it lacks is diagnosed naming those it has. --prices names a price table (models: { MODEL:
      { input, output } }, USD per million tokens, matched by a model's label, else its model
      id): a replay with tokens but no cost is priced from it, shown ~$ (estimated); one
      missing a token count, from the scenario prompt's and the answer's characters ÷ 4 (a
      lower bound). --replay-timeout is each replay's budget in milliseconds (default 120000,
      as the worker's VERDICT_REPLAY_TIMEOUT_MS, which run does not read): past it the pair is
      a run_error (ReplayTimeoutError), its signal is aborted and an HTTP agent's request with
      it; the pair is given up then, but a module that ignores the signal goes on running its
      call, beside the next pairs' (more calls in flight than --concurrency). Progress goes
      to stderr, a [n/N] line a pair (an errored pair's ends with its error, on one line,
      clipped to 200 characters); --quiet leaves those lines out (the pass-rate line
      still prints). --require-judge-scores fails a pair judge_unavailable when a judge grade
      it expected is missing (task_completion with --judge, each llm_judge criterion), where
      by default such a grade is left out and the pair may pass on its rules alone (a judge
      call that failed or answered unusably); it does not fail the run. With --judge none
      only llm_judge criteria are expected (and missing); a set with none: it changes nothing,
      said on stderr. --release names the agent's release the run scored (its digest, with
      --release-revision and --release-label if you like; each at most 200 characters, as
      startRun's release): the report's Release line and chip, and report.json's release.
      --metadata KEY=VALUE, once per key, adds text to the run's metadata after the catalog,
      product, set and digest the run writes itself (which it may not name): the report's
      Metadata line and chips, and report.json's metadata.`,
  report: `  report RUN_ID [--format html|md|json] [--out FILE] [--tenant T] [--theme light|dark|auto]
      A run's report rebuilt from the configured event store (the HTTP export's bytes), as
      HTML unless --format says md or json. RUN_ID is a run's id, or an imported run's own
      run_id (as in its envelope).`,
  "catalogs import": `  catalogs import FILE [--preview] [--tenant T]
      Imports a catalog; --preview prints what would change and the new digest, writing nothing.`,
  "catalogs export": `  catalogs export KEY [FILE] [--tenant T]
      Writes a catalog's canonical YAML to FILE (or stdout).`,
  "evals report": `  evals report RUN_ID [--format html|md|json] [--out FILE] [--tenant T] [--theme light|dark|auto]
      The same as report (the guide's name for it).`,
  "evals import": `  evals import FILE --evaluation ID [--tenant T | --url URL [--insecure-http]] [--run-id ID]
      Imports a saved report envelope (a run's report.json) as a completed run of the
      evaluation and prints the run's id. The same run_id with the same report again writes
      nothing (exit 0); with a different report it is a conflict (exit 3). A bare report (what
      \`verdict run\` writes as JSON) is imported with --run-id ID: your name for that run
      (e.g. the CI build), its run_id. --url sends it to another install's API instead (its
      base URL, e.g. https://host:4000) with the write key in VERDICT_API_KEY, whose tenant
      the run is (no --tenant then); a key refused there is exit 5, an API that cannot be
      reached or does not answer in VERDICT_API_TIMEOUT_MS is exit 4. Plain http:// is for
      this machine (localhost, 127.x, ::1); elsewhere it would send the key unencrypted, and
      needs --insecure-http.`,
  "evals clear-kpis": `  evals clear-kpis ID [--tenant T]
      Clears a judge_defined evaluation's KPIs, so its next run asks its judge to define them
      again; runs already started keep theirs. One without KPIs writes nothing (exit 0); an
      unknown id, or another tenant's, is exit 2.`,
  "keys create": `  keys create --tenant T --role read|write [--name NAME]
      Creates an API key and prints it once (only its hash is stored).`,
  "keys list": `  keys list [--tenant T]
      Lists API keys: id, tenant, role, name, created and revoked (never the key or its hash).`,
  "keys revoke": `  keys revoke ID
      Revokes a key by its id (from keys list): the API refuses it from then on. Revoking a
      revoked key by its id changes nothing (exit 0); an unknown id is exit 2. Given the whole
      key instead, revokes it when it is a valid key; otherwise (unknown, revoked already, or a
      secret that does not match) exit 2, never printing the key.`,
};

const ENVIRONMENT = `Environment
  VERDICT_HOME          data directory of the embedded default (default ./.verdict)
  PORT                  API port for start (default 4000, a free one picked when it is taken;
                        a PORT or --port that is taken is refused)
  DATABASE_URL          PostgreSQL for events (and read models): leaves the embedded default
  VERDICT_READ_DATABASE_URL  read models and API keys elsewhere than DATABASE_URL
  KAFKA_BROKERS         host:port,... : the job bus (with DATABASE_URL)
  VERDICT_TOPIC_PREFIX  prefix of Kafka topics and consumer groups (keeps deployments apart)
  VERDICT_PRICES        price table file start's worker prices replays with, as a worker's
                        (a bad one is exit 2; run takes --prices FILE)
  VERDICT_TENANT        tenant of report / catalogs / evals (default demo; not with evals import --url)
  VERDICT_API_KEY       API key evals import --url sends (a write key of that install)
  VERDICT_API_TIMEOUT_MS  milliseconds evals import --url waits for the API's answer (default 60000)
  VERDICT_QUOTA_EXECUTIONS, VERDICT_QUOTA_REPORTS  the plan of start and evals import: pairs
                        replayed, reports imported per tenant per month (unset: no limit)
  VERDICT_EXECUTION_DISABLED  true refuses every run start (default false)
  VERDICT_API_MAX_KEY_OPERATIONS, VERDICT_API_MAX_ANSWER_BYTES, VERDICT_API_MAX_HELD_ANSWER_BYTES,
  VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT, VERDICT_API_HEAVY_LOAD_WAIT_MS
                        start's API limits (apps/api/README.md "Limits")
  VERDICT_API_CORS_ORIGINS  origins a browser dashboard may call start's API from, comma
                        separated (https://dash.example.com; unset: no CORS)
  VERDICT_PG_CONNECT_TIMEOUT_MS, VERDICT_PG_QUERY_TIMEOUT_MS, VERDICT_PG_KEEPALIVE_IDLE_MS,
  VERDICT_PG_SESSION_CHECK_MS  PostgreSQL timeouts of every command on it (apps/worker/README.md)
  ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY (each with *_BASE_URL), OLLAMA_BASE_URL
                        model providers of run --judge providers (never shown)
  A value of the wrong form is exit 2, naming the variable; README.md's environment table
  has each in full.`;

const EXIT_CODES = "Exit codes: 0 ok, 1 run failed, gate missed, or a plan refused the start or import, or the output (--out or stdout) could not be written, 2 usage or input error, 3 conflict with what is stored, 4 a database or API that cannot be used, 5 VERDICT_API_KEY refused by the API.";

// Not in COMMAND_USAGE: version takes no flags, so it has no FLAG_SPECS entry.
const VERSION_SECTION = `  version (or --version)
      Prints verdict's version (the repository's package.json).`;

/** `verdict version --help`: its section, as commandUsage gives another command's. */
export const VERSION_USAGE = `${VERSION_SECTION.replace(/^ {2}/, "verdict ")}\n\n${EXIT_CODES}\n`;

export const USAGE = `verdict: evaluate an LLM agent's scenarios across models.

Commands
${Object.values(COMMAND_USAGE).join("\n")}
${VERSION_SECTION}

${ENVIRONMENT}

${EXIT_CODES}
`;

/** Whether `name` is one command ("run", "evals import"), not a group of them ("evals"). */
export function isCommandName(name: string): boolean {
  return Object.hasOwn(COMMAND_USAGE, name);
}

/** `verdict CMD --help`: the commands whose name starts with `prefix` ("run", or "catalogs" for both). */
export function commandUsage(prefix: string): string | null {
  const sections = Object.entries(COMMAND_USAGE).filter(([name]) => name === prefix || name.startsWith(`${prefix} `));
  if (sections.length === 0) return null;
  return `${sections.map(([, text]) => text.replace(/^ {2}/, "verdict ")).join("\n")}\n\n${EXIT_CODES}\n`;
}
