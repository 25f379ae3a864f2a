-- The evaluations index lists the newest-updated first (reference-platform: GET /api/evaluations
-- "≤50 newest-updated"), optionally of one agent: updated_at is already kept (every change to an
-- evaluation, and every run started or imported, sets it), so only the orders it is read in are
-- indexed. No row changes, so no projection version.
CREATE INDEX evaluations_tenant_updated ON evaluations (tenant, updated_at DESC, id DESC);
CREATE INDEX evaluations_tenant_agent_updated ON evaluations (tenant, agent, updated_at DESC, id DESC);
