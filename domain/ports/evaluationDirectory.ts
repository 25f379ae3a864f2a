// The EvaluationDirectory port: where evaluations recorded before names were reserved and before
// catalog sets were followed (no EvaluationNameReserved, no CatalogSetMaterialized) can be found.
// Nothing on the reservation or catalog streams points at them, so the commands that must see
// them (createEvaluation, a catalog's sync) ask this directory for candidates and then check each
// candidate against its own stream: the directory only says where to look, never decides. The
// read models implement it (an indexed query); the event log does too (a scan, for tools that
// have no read models).

export interface EvaluationDirectory {
  /** Ids of the tenant's evaluations of this agent under exactly this name, oldest first (then by id). */
  evaluationsNamed(tenant: string, agent: string, name: string): Promise<string[]>;
  /** Ids of the tenant's evaluations made from a set of this catalog, oldest first (then by id). */
  evaluationsOfCatalog(tenant: string, catalogKey: string): Promise<string[]>;
}
