// An evaluation recorded before names were reserved holds no reservation: nothing on the
// `evaluation_name-` stream says its name is taken, so a new evaluation could take it (two of one
// agent under one name) and a catalog set's evaluation was made twice. Before a name is decided,
// the tenant's evaluations under it are looked up (EvaluationDirectory) and, when the name has no
// reservation yet, it is reserved for the one found, exactly as its creation would reserve it
// today: from then on the reservation answers, as for any evaluation.
import { DomainError } from "../../events/domainError.js";
import { evaluationNameStream, evaluationStream } from "../../events/streams.js";
import type { EvaluationDirectory } from "../../ports/evaluationDirectory.js";
import type { EventStore } from "../../ports/eventStore.js";
import { handleCommand, loadAggregate, type HandleOptions } from "../handleCommand.js";
import { evaluationAggregate } from "./evaluationAggregate.js";
import { evaluationNameAggregate } from "./evaluationName.js";

export interface NameToAdopt {
  tenant: string;
  agent: string;
  name: string;
}

type Options = Omit<HandleOptions<never>, "decideContext">;

/**
 * The evaluation to reserve the name for: the oldest the directory names whose own stream agrees
 * (the directory may lag or be stale; the stream is the truth). Several evaluations may share the
 * name from before reservations: the oldest keeps it, deterministically (the directory orders by
 * creation, then id), since it is the one the name first meant and whose runs came first.
 */
async function oldestRecorded(store: EventStore, directory: EvaluationDirectory, wanted: NameToAdopt, options: Options): Promise<string | null> {
  for (const id of await directory.evaluationsNamed(wanted.tenant, wanted.agent, wanted.name)) {
    const { state } = await loadAggregate(store, evaluationAggregate, evaluationStream(id), options.registry);
    if (state.exists && state.tenant === wanted.tenant && state.agent === wanted.agent && state.name === wanted.name) return id;
  }
  return null;
}

/**
 * Reserves the name for the evaluation that held it before reservations, if the name has no
 * reservation and one holds it; answers that evaluation's id, or null when there was nothing to
 * adopt (or another reservation won the race). Race-safe as a creation's reservation is: the first EvaluationNameReserved is appended
 * with "no stream", so of an adoption and a creation (or two adoptions) racing, one reserves and
 * the other is refused; the refusal is not an error here, as the name is then held either way.
 */
export async function adoptEvaluationName(store: EventStore, directory: EvaluationDirectory, wanted: NameToAdopt, options: Options): Promise<string | null> {
  const streamId = evaluationNameStream(wanted.tenant, wanted.agent, wanted.name);
  if ((await store.streamVersion(streamId)) !== null) return null;
  const holder = await oldestRecorded(store, directory, wanted, options);
  if (!holder) return null;
  const reserve = { type: "ReserveEvaluationName", evaluation_id: holder, ...wanted };
  try {
    await handleCommand(store, evaluationNameAggregate, streamId, reserve, options);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === "conflict")) throw error;
    return null;
  }
  return holder;
}
