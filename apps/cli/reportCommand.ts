// `verdict report RUN_ID [--format html|md|json] [--out FILE] [--tenant T] [--theme light|dark|auto]`:
// a run's report rebuilt from the configured event store with the API's own functions, so the
// bytes equal the HTTP export's (GET .../report, report.md, report.json).
import { evaluationAggregate, evaluationStream, loadAggregate } from "@verdict/domain";
import { jsonOrTooLarge, loadByHandle, loadRunHistory, rebuildReport, reportEnvelope } from "@verdict/api";
import { oneOf, parseFlags } from "./args.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import { checkOutputPath, writeOutputFor } from "./outputFile.js";
import { EXIT, NotFoundError, type ExitCode } from "./errors.js";
import type { Io } from "./io.js";
import { openExistingEventStore, platformMode, Resources } from "./platform.js";
import { tenantOf } from "./tenant.js";
import { themeFlag } from "./themeFlag.js";

/** What a report too large for one JSON document (over V8's ~512 MB string limit) is read as instead. */
const JSON_INSTEAD = "use --format md or --format html, or page run { results(first:, after:) } over the API";

export async function reportCommand(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("report", argv, FLAG_SPECS.report);
  const format = oneOf("report", "format", flags.values.format, ["html", "md", "json"] as const, "html");
  const theme = themeFlag("report", flags.values.theme, format);
  const tenant = tenantOf(flags.values.tenant, env);
  checkOutputPath("report", "--out", flags.values.out);
  const mode = platformMode(env);
  const resources = new Resources();
  try {
    const store = await openExistingEventStore(mode, resources);
    // RUN_ID: a run's id here, or a published run's own run_id (the guide). Another tenant's run,
    // a malformed id or a missing run: NOT_FOUND, as over HTTP.
    const history = await loadByHandle(tenant, flags.positionals[0], (runId) => loadRunHistory(store, tenant, runId)).catch((error: unknown) => {
      throw notFoundForTenant(error, tenant);
    });
    let text: string;
    if (format === "json") {
      const head = history.record?.started ?? history.imported;
      const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream(head?.evaluation_id ?? ""));
      const envelope = reportEnvelope(history, state.name ?? head?.evaluation_id ?? "", state.agent ?? "agent");
      text = `${jsonOrTooLarge(envelope, "the run's report", JSON_INSTEAD, 2)}\n`;
    } else {
      const report = rebuildReport(history);
      text = format === "md" ? report.toMarkdown() : report.toHtml({ theme });
    }
    if (flags.values.out) {
      await writeOutputFor("report", "--out", flags.values.out, text);
      io.err(`report written to ${flags.values.out}`);
    } else {
      await io.write(text); // exact bytes, no added newline
    }
    return history.status === "failed" ? EXIT.failed : EXIT.ok;
  } finally {
    await resources.close();
  }
}

/**
 * A run not found names the tenant searched and how to pick another (it said only `run X not
 * found`, as if the run were gone). The same words whether or not another tenant has the run.
 */
function notFoundForTenant(error: unknown, tenant: string): unknown {
  if ((error as { apiCode?: unknown } | null)?.apiCode !== "NOT_FOUND") return error;
  return new NotFoundError(`${(error as Error).message} for tenant ${tenant} (for another tenant's run, pass --tenant T or set VERDICT_TENANT)`);
}
