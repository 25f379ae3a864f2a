// `verdict evals import FILE --evaluation ID [--tenant T | --url URL] [--run-id ID]`
// (reference-platform §6.4): publishes a saved report envelope (`report.json` as exported), or
// with --run-id a bare report (`verdict run --format json`), as a completed run of the
// evaluation, through the importReport mutation's own code (importEnvelope): into the store
// DATABASE_URL names (or the embedded home), or with --url into another install, sent to its
// API's importReport with the key in VERDICT_API_KEY (remoteImport.ts), whose tenant it is. The
// same run_id with the same report again writes nothing and exits 0; with a different report it
// is a conflict, exit 3. Either way the envelope is checked here first: a bad one is refused
// before any database is opened or request made.
import { randomUUID } from "node:crypto";
import { importEnvelope, parseEnvelope } from "@verdict/api";
import { evaluationAggregate, evaluationStream, loadAggregate, type EventStore, type Plan } from "@verdict/domain";
import { planFromEnv, SettingError } from "@verdict/infra/settings";
import { parseFlags, required, type ParsedFlags } from "./args.js";
import { envelopeDraft, type EnvelopeDraft } from "./bareReport.js";
import { readEnvelopeFile } from "./envelopeFile.js";
import { CliError, EXIT, exitCodeOf, HomeInUseRefusal, type ExitCode } from "./errors.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import type { Io } from "./io.js";
import { openExistingEventStore, platformMode, Resources } from "./platform.js";
import { importRemotely, type RemoteImported } from "./remoteImport.js";
import { remoteTarget } from "./remoteTarget.js";
import { tenantOf } from "./tenant.js";

/** Errors that are not about the input: passed on as they are. */
const NOT_THE_INPUT: readonly ExitCode[] = [EXIT.failed, EXIT.unavailable, EXIT.keyRefused];

/**
 * The way into a home `verdict start` holds: its API, which `--url` sends to (it refused with
 * only "use its API", and `verdict keys create` works while start runs).
 */
const THROUGH_ITS_API =
  "To import into the install it serves, add --url with the URL `verdict start` printed (http://127.0.0.1:4000 by default) " +
  "and a write key of the run's tenant in VERDICT_API_KEY (`verdict keys create --tenant T --role write`).";

/**
 * A refusal says what it is about: the --evaluation or --run-id flag, else the file (a bad field,
 * a conflict). A home in use is about neither: it was said as `FILE: … is in use`, as if the file were bad.
 */
function naming<T>(path: string, runIdFlag: boolean, work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    const code = exitCodeOf(error);
    if (NOT_THE_INPUT.includes(code) || error instanceof HomeInUseRefusal) throw error;
    const field = (error as { field?: unknown }).field;
    const about = field === "evaluationId" ? "--evaluation" : field === "envelope.run_id" && runIdFlag ? "--run-id" : path;
    throw new CliError(`${about}: ${(error as Error).message}`, code);
  });
}

/** `where` is `for tenant T` here, or `at URL` for another install (its key's tenant). */
function described(imported: RemoteImported, where: string): string {
  const run = `run ${imported.runId} (#${imported.number})`;
  if (imported.duplicate) return `${imported.hostRunId} was imported before with this report, as ${run}: nothing written`;
  return `imported ${imported.hostRunId} as ${run} of evaluation ${imported.evaluationId} ${where}`;
}

/**
 * The plan the environment sets, read with the flags, before the file: a bad setting is the
 * configuration's error (exit 2, naming the variable), not the file's, as it was when read
 * inside the import and so reported under the file's path.
 */
function planOf(env: NodeJS.ProcessEnv): Plan {
  try {
    return planFromEnv(env);
  } catch (error) {
    throw error instanceof SettingError ? new CliError(`verdict evals import: configuration: ${error.message}`, EXIT.usage) : error;
  }
}

async function importLocally(env: NodeJS.ProcessEnv, plan: Plan, tenant: string, evaluationId: string, draft: EnvelopeDraft): Promise<RemoteImported> {
  const resources = new Resources();
  try {
    // A home with no event log has no evaluation: NOT_FOUND, and nothing is created.
    const store = await openExistingEventStore(platformMode(env), resources);
    const envelope = draft.envelope(draft.agentless ? await evaluationAgent(store, tenant, evaluationId) : null);
    // The same report quota as the API's (VERDICT_QUOTA_REPORTS): a file is no way round it.
    const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant, actor: "cli" }, plan };
    return await importEnvelope(store, evaluationId, envelope, options);
  } catch (error) {
    throw error instanceof HomeInUseRefusal ? new HomeInUseRefusal(`${error.message} ${THROUGH_ITS_API}`) : error;
  } finally {
    await resources.close();
  }
}

/** The agent of the tenant's evaluation, or null when the tenant has no such evaluation (the import then says so). */
async function evaluationAgent(store: EventStore, tenant: string, evaluationId: string): Promise<string | null> {
  const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream(evaluationId));
  return state.tenant === tenant ? state.agent : null;
}

/** Where the run goes: this deployment's store for a tenant, or another install's API (--url). */
interface Destination {
  where: string;
  send(evaluationId: string, draft: EnvelopeDraft): Promise<RemoteImported>;
}

function destinationOf(flags: ParsedFlags, env: NodeJS.ProcessEnv): Destination {
  const { values } = flags;
  const insecureHttp = flags.booleans["insecure-http"];
  if (values.url === undefined) {
    if (insecureHttp) throw new CliError("verdict evals import: --insecure-http applies only with --url");
    const tenant = tenantOf(values.tenant, env);
    const plan = planOf(env);
    return { where: `for tenant ${tenant}`, send: (evaluationId, draft) => importLocally(env, plan, tenant, evaluationId, draft) };
  }
  const target = remoteTarget(values.url, values.tenant, env, insecureHttp);
  return { where: `at ${target.url}`, send: (evaluationId, draft) => importRemotely(target, evaluationId, draft) };
}

export async function evalsImport(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("evals import", argv, FLAG_SPECS["evals import"]);
  const evaluationId = required("evals import", flags, "evaluation", "the id of the evaluation the run belongs to");
  const destination = destinationOf(flags, env);
  const path = flags.positionals[0];
  const runIdFlag = flags.values["run-id"];
  const draft = envelopeDraft(readEnvelopeFile(path), runIdFlag, path);
  const name = <T>(work: () => Promise<T>) => naming(path, runIdFlag !== undefined, work);
  // A bad envelope is refused before any database is opened or request sent.
  await name(async () => parseEnvelope(draft.envelope(null)));
  const imported = await name(() => destination.send(evaluationId, draft));
  io.err(described(imported, destination.where));
  io.out(imported.runId); // for `verdict report RUN_ID`
  return EXIT.ok;
}
