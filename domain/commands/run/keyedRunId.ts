// A start sent with an idempotency key (the startRun mutation's `idempotencyKey`) is one run
// however often it is sent: a client that lost the first answer sends the same call again and
// gets the run the first call started. The run's id is derived from (tenant, evaluation, key), so
// the run stream's "no stream" append is what makes two racing sends one run, and the meter
// (keyed by run id) what makes them one charge. The arguments the key was first sent with are
// recorded with RunStarted as a digest: the key sent again with other arguments is a conflict,
// never another run, nor the first one passed off as what was asked.
import { createHash } from "node:crypto";
import { stableJson } from "../evaluation/scenarioChanges.js";
import type { StartRun } from "../evaluation/evaluationCommands.js";

/** `key-` and 32 hex digits of SHA-256(tenant NUL evaluationId NUL key): a valid id, the same for every retry. */
export function keyedRunId(tenant: string, evaluationId: string, key: string): string {
  const hash = createHash("sha256").update(`${tenant}\u0000${evaluationId}\u0000${key}`, "utf8").digest("hex");
  return `key-${hash.slice(0, 32)}`;
}

/**
 * SHA-256 of what the caller asked for, in canonical JSON: the selection (keys, group, models as
 * resolved), external, release, tools and metadata. Not what the platform adds (the run id, the
 * judge label it reads from the evaluation), so a retry after the evaluation changed still matches.
 */
export function startRequestDigest(command: StartRun): string {
  const asked = {
    evaluation_id: command.evaluation_id,
    keys: command.keys,
    group: command.group,
    models: command.models,
    external: command.external,
    release: command.release,
    tools: command.tools,
    metadata: command.metadata,
  };
  return createHash("sha256").update(stableJson(asked), "utf8").digest("hex");
}
