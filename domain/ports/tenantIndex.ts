// The TenantIndex port: which tenant owns a run or an evaluation, from something far cheaper
// than its stream (the read models' rows). Tenancy decided from the stream meant reading and
// decoding all of another tenant's run before answering NOT_FOUND, so the answer took longer
// the larger that run was, and a caller could tell "another tenant's" from "does not exist" by
// the clock. The index only ever shortens that path: where it has no row for an id (the
// projector has not reached it yet, or nothing has that id) the stream decides, as before.

export interface TenantIndex {
  /** The tenant of the run with this id, or null when no run has it (yet). */
  runTenant(runId: string): Promise<string | null>;
  /** The tenant of the evaluation with this id, or null when no evaluation has it (yet). */
  evaluationTenant(evaluationId: string): Promise<string | null>;
}

/**
 * True when the index says another tenant owns the id: the caller answers as for a missing one
 * without reading the stream. False (read the stream) without an index, or when it has no row.
 */
export async function ownedByAnotherTenant(
  index: TenantIndex | undefined,
  kind: "run" | "evaluation",
  id: string,
  tenant: string,
): Promise<boolean> {
  if (!index) return false;
  const owner = kind === "run" ? await index.runTenant(id) : await index.evaluationTenant(id);
  return owner !== null && owner !== tenant;
}
