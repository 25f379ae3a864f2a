// A tenant's agents: every name its evaluations or its recorded releases carry, each with its
// latest release, its evaluations by standing, and the pass rate pooled over the evaluations
// that count (reference-platform §7 item 15). The pooled pass rate, exactly: over the headline
// runs (newest COMPLETED run) of the agent's evaluations whose standing is current or unrecorded,
// passed results ÷ scored results (passed + failed + errored), as a percent rounded to one
// decimal half away from zero, as a report's pass_rate; null when those runs scored nothing (or
// none counts). Stale, archived and none evaluations are left out: a stale run scored a release
// the agent no longer runs, and pooling it would mix releases.
import { roundHalfAwayFromZero } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import { selectList } from "./columns.js";
import { COUNTED_STANDINGS, STANDING_SQL, type Standing } from "./standing.js";
import type { Agent, AgentRelease } from "./types.js";

const TIMESTAMP = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const RELEASE_SELECT = `${selectList("v", ["version", "digest", "revision"])}, 'v' || v.version AS label, ${TIMESTAMP("v.recorded_at")} AS "recordedAt"`;

interface AgentRow {
  name: string; latestVersion: number | null; latestSince: string | null;
  current: number; stale: number; unrecorded: number; archived: number; none: number; passed: number; scored: number;
}

/** The agents named (all of the tenant's when `name` is undefined), in name order. */
async function agentRows(sql: Sql, tenant: string, name?: string): Promise<AgentRow[]> {
  const one = name === undefined ? "" : " AND n = ?";
  const named = name === undefined ? [] : [name];
  const counts = (["current", "stale", "unrecorded", "archived", "none"] as const).map((s) => `count(*) FILTER (WHERE s.standing = '${s}')::int AS ${s}`);
  const counted = `s.standing IN (${COUNTED_STANDINGS.map((standing) => `'${standing}'`).join(", ")})`;
  return sql.execute<AgentRow>(
    `WITH names AS (
       SELECT n FROM (SELECT a.name AS n FROM agents a WHERE a.tenant = ? UNION SELECT e.agent FROM evaluations e WHERE e.tenant = ?) x WHERE true${one}
     ), standings AS (
       SELECT e.agent, e.headline_run_id, ${STANDING_SQL} AS standing FROM evaluations e WHERE e.tenant = ?${name === undefined ? "" : " AND e.agent = ?"}
     )
     SELECT names.n AS name, a.latest_version AS "latestVersion", ${TIMESTAMP("a.latest_at")} AS "latestSince", ${counts.join(", ")},
       coalesce(sum(h.passed) FILTER (WHERE ${counted}), 0)::float8 AS passed,
       coalesce(sum(h.passed + h.failed + h.errored) FILTER (WHERE ${counted}), 0)::float8 AS scored
     FROM names
     LEFT JOIN agents a ON a.tenant = ? AND a.name = names.n
     LEFT JOIN standings s ON s.agent = names.n
     LEFT JOIN runs h ON h.id = s.headline_run_id AND h.tenant = ?
     GROUP BY names.n, a.latest_version, a.latest_at
     ORDER BY names.n`,
    [tenant, tenant, ...named, tenant, ...named, tenant, tenant],
  );
}

/** Every version of the agent, oldest first. */
export function agentReleases(sql: Sql, tenant: string, agent: string): Promise<AgentRelease[]> {
  return sql.execute<AgentRelease>(`SELECT ${RELEASE_SELECT} FROM agent_releases v WHERE v.tenant = ? AND v.agent = ? ORDER BY v.version`, [tenant, agent]);
}

async function latestReleaseOf(sql: Sql, tenant: string, row: AgentRow): Promise<AgentRelease | null> {
  if (row.latestVersion === null) return null;
  const [release] = await sql.execute<AgentRelease>(
    `SELECT ${RELEASE_SELECT} FROM agent_releases v WHERE v.tenant = ? AND v.agent = ? AND v.version = ?`, [tenant, row.name, row.latestVersion],
  );
  return release ?? null;
}

async function agentOf(sql: Sql, tenant: string, row: AgentRow): Promise<Agent> {
  const standings: Record<Standing, number> = { current: row.current, stale: row.stale, unrecorded: row.unrecorded, archived: row.archived, none: row.none };
  const [passed, scored] = [Number(row.passed), Number(row.scored)];
  return {
    tenant, name: row.name, latestRelease: await latestReleaseOf(sql, tenant, row), latestSince: row.latestSince, standings,
    evaluationsCounted: COUNTED_STANDINGS.reduce((n, standing) => n + standings[standing], 0),
    evaluationsLeftOut: (Object.keys(standings) as Standing[]).filter((standing) => !COUNTED_STANDINGS.includes(standing)).reduce((n, standing) => n + standings[standing], 0),
    pooledPassed: passed, pooledScored: scored, pooledPassRate: scored > 0 ? roundHalfAwayFromZero((passed * 100) / scored, 1) : null,
  };
}

export async function listAgents(sql: Sql, tenant: string): Promise<Agent[]> {
  const rows = await agentRows(sql, tenant);
  return Promise.all(rows.map((row) => agentOf(sql, tenant, row)));
}

/** The agent of that name (as stored: its evaluations' or releases' name), or null when the tenant has none. */
export async function getAgent(sql: Sql, tenant: string, name: string): Promise<Agent | null> {
  const [row] = await agentRows(sql, tenant, name);
  return row ? agentOf(sql, tenant, row) : null;
}
