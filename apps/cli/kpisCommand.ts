// `verdict evals clear-kpis ID [--tenant T]`: clears an evaluation's judge-defined KPIs in this
// install's store (ClearKpis -> KpisCleared, as the API's clearKpis), so its next judge_defined
// run asks its judge again. An evaluation without KPIs writes nothing (exit 0); a missing id or
// another tenant's is not found (exit 2), word for word the same.
import { randomUUID } from "node:crypto";
import { evaluationAggregate, evaluationStream, handleCommand, ID_RULE, isValidId } from "@verdict/domain";
import { parseFlags } from "./args.js";
import { CliError, EXIT, exitCodeOf, isNotFound, NotFoundError, type ExitCode } from "./errors.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import type { Io } from "./io.js";
import { openExistingEventStore, platformMode, Resources } from "./platform.js";
import { tenantOf } from "./tenant.js";

export async function evalsClearKpis(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("evals clear-kpis", argv, FLAG_SPECS["evals clear-kpis"]);
  const evaluationId: string = flags.positionals[0];
  const given = JSON.stringify(evaluationId.slice(0, 100));
  const tenant = tenantOf(flags.values.tenant, env);
  if (!isValidId(evaluationId)) throw new CliError(`verdict evals clear-kpis: ID must be ${ID_RULE} (got ${given})`);
  const resources = new Resources();
  try {
    // A home with no event log has no evaluation: not found, and nothing is created.
    const store = await openExistingEventStore(platformMode(env), resources);
    const command = { type: "ClearKpis", evaluation_id: evaluationId, tenant, cleared_by: "cli" };
    const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant, actor: "cli" } };
    const handled = await handleCommand(store, evaluationAggregate, evaluationStream(evaluationId), command, options).catch((error: unknown) => {
      if (exitCodeOf(error) !== EXIT.usage) throw error;
      const message = `verdict evals clear-kpis: ${(error as Error).message}`;
      throw isNotFound(error) ? new NotFoundError(message) : new CliError(message);
    });
    const cleared = handled.domainEvents[0]?.data as { kpi_keys?: string[] } | undefined;
    io.err(cleared?.kpi_keys ? `cleared the KPIs ${cleared.kpi_keys.join(", ")} of evaluation ${evaluationId}: its next run asks its judge again` : `evaluation ${evaluationId} holds no KPIs: nothing written`);
    return EXIT.ok;
  } finally {
    await resources.close();
  }
}
