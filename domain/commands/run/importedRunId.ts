// An imported report's run id is the host's (the envelope's run_id), which every tenant chooses
// on its own: two tenants' CI may both send "nightly-42". The platform keys the run by
// (tenant, run_id) (reference-platform feature 30), so the run stream's id is derived from both:
// one tenant's import never meets another's run, and nobody learns which ids others used.
import { createHash } from "node:crypto";

/** `imp-` and 32 hex digits of SHA-256(tenant NUL hostRunId): a valid id, the same for a retry. */
export function importedRunId(tenant: string, hostRunId: string): string {
  const hash = createHash("sha256").update(`${tenant}\u0000${hostRunId}`, "utf8").digest("hex");
  return `imp-${hash.slice(0, 32)}`;
}
