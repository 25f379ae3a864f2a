// A tenant's agents: every name its evaluations or its recorded releases carry, each with its
// latest release, its evaluations by standing, and the pass rate pooled over the evaluations
// that count (reference-platform §7 item 15). The pooled pass rate, exactly: over the headline
// runs (newest COMPLETED run) of the agent's evaluations whose standing is current or unrecorded,
// passed results ÷ scored results (passed + failed + errored), as a percent rounded to one
// decimal half away from zero, as a report's pass_rate; null when those runs scored nothing (or
// none counts). Stale, archived and none evaluations are left out: a stale run scored a release
// the agent no longer runs, and pooling it would mix releases.
//
// Both lists are paged and each page is one statement, whatever it holds: a page of agents (by
// name) with their latest releases joined, and a page of releases (newest version first) of
// every agent asked at once, so a list of agents asking for their releases reads twice, not once
// per agent.
import { roundHalfAwayFromZero } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import { connection, decodeScopedCursor, pageSize } from "./paging.js";
import { COUNTED_STANDINGS, STANDING_SQL, type Standing } from "./standing.js";
import type { Agent, AgentRelease, Connection, PageArgs } from "./types.js";

const TIMESTAMP = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const RELEASE_SELECT = `v.version, v.digest, v.revision, 'v' || v.version AS label, ${TIMESTAMP("v.recorded_at")} AS "recordedAt"`;

interface AgentRow {
  name: string | null; total: number; latestSince: string | null;
  version: number | null; digest: string | null; revision: string | null; label: string | null; recordedAt: string | null;
  current: number; stale: number; unrecorded: number; archived: number; none: number; passed: number; scored: number;
}

/**
 * The agents of one page, in name order (code points, COLLATE "C": the same on every install,
 * the read database's collation apart, as embedded PGlite's and JavaScript's sort), with how many the tenant has in all (`total`, on every
 * row): `name` alone, or the `size` + 1 after `after` (so the caller knows whether more follow).
 * Always at least one row; a page with no agent is one row whose name is null, holding the total.
 */
async function agentRows(sql: Sql, tenant: string, page: { name: string } | { after: string | null; size: number }): Promise<AgentRow[]> {
  const counts = (["current", "stale", "unrecorded", "archived", "none"] as const).map((s) => `count(s.standing) FILTER (WHERE s.standing = '${s}')::int AS ${s}`);
  const counted = `s.standing IN (${COUNTED_STANDINGS.map((standing) => `'${standing}'`).join(", ")})`;
  const [pageSql, pageParams] = "name" in page
    ? ["SELECT n FROM names WHERE n = ?", [page.name]]
    : [`SELECT n FROM names${page.after === null ? "" : ' WHERE n COLLATE "C" > ?'} ORDER BY n COLLATE "C" LIMIT ?`, [...(page.after === null ? [] : [page.after]), page.size + 1]];
  return sql.execute<AgentRow>(
    `WITH names AS (
       SELECT a.name AS n FROM agents a WHERE a.tenant = ? UNION SELECT e.agent FROM evaluations e WHERE e.tenant = ?
     ), page AS (${pageSql}),
     standings AS (
       SELECT e.agent, e.headline_run_id, ${STANDING_SQL} AS standing FROM evaluations e WHERE e.tenant = ? AND e.agent IN (SELECT n FROM page)
     )
     SELECT page.n AS name, t.total, ${TIMESTAMP("a.latest_at")} AS "latestSince", ${RELEASE_SELECT}, ${counts.join(", ")},
       coalesce(sum(h.passed) FILTER (WHERE ${counted}), 0)::float8 AS passed,
       coalesce(sum(h.passed + h.failed + h.errored) FILTER (WHERE ${counted}), 0)::float8 AS scored
     FROM (SELECT count(*)::int AS total FROM names) t
     LEFT JOIN page ON true
     LEFT JOIN agents a ON a.tenant = ? AND a.name = page.n
     LEFT JOIN agent_releases v ON v.tenant = ? AND v.agent = page.n AND v.version = a.latest_version
     LEFT JOIN standings s ON s.agent = page.n
     LEFT JOIN runs h ON h.id = s.headline_run_id AND h.tenant = ?
     GROUP BY page.n, t.total, a.latest_at, v.version, v.digest, v.revision, v.recorded_at
     ORDER BY page.n COLLATE "C"`,
    [tenant, tenant, ...pageParams, tenant, tenant, tenant, tenant],
  );
}

function agentOf(tenant: string, row: AgentRow & { name: string }): Agent {
  const standings: Record<Standing, number> = { current: row.current, stale: row.stale, unrecorded: row.unrecorded, archived: row.archived, none: row.none };
  const [passed, scored] = [Number(row.passed), Number(row.scored)];
  const latestRelease: AgentRelease | null = row.version === null
    ? null
    : { version: row.version, digest: row.digest as string, revision: row.revision, label: row.label as string, recordedAt: row.recordedAt as string };
  return {
    tenant, name: row.name, latestRelease, latestSince: row.latestSince, standings,
    evaluationsCounted: COUNTED_STANDINGS.reduce((n, standing) => n + standings[standing], 0),
    evaluationsLeftOut: (Object.keys(standings) as Standing[]).filter((standing) => !COUNTED_STANDINGS.includes(standing)).reduce((n, standing) => n + standings[standing], 0),
    pooledPassed: passed, pooledScored: scored, pooledPassRate: scored > 0 ? roundHalfAwayFromZero((passed * 100) / scored, 1) : null,
  };
}

const named = (row: AgentRow): row is AgentRow & { name: string } => row.name !== null;

/** A page of the tenant's agents, in name order (one statement). */
export async function listAgents(sql: Sql, tenant: string, args: PageArgs = {}): Promise<Connection<Agent>> {
  const size = pageSize(args.first);
  const scope = `agents of ${tenant}`;
  const after = args.after ? (decodeScopedCursor(args.after, scope, ["text"])[0] as string) : null;
  const rows = await agentRows(sql, tenant, { after, size });
  const agents = rows.filter(named).map((row) => agentOf(tenant, row));
  return connection(agents, size, rows[0]?.total ?? 0, scope, (agent) => [agent.name]);
}

/** The agent of that name (as stored: its evaluations' or releases' name), or null when the tenant has none (one statement). */
export async function getAgent(sql: Sql, tenant: string, name: string): Promise<Agent | null> {
  const [row] = (await agentRows(sql, tenant, { name })).filter(named);
  return row ? agentOf(tenant, row) : null;
}

/** Where a page of an agent's releases starts: below the version of an `after` that list gave out. */
const releasesScope = (agent: string) => `releases of ${agent}`;

/**
 * A page of releases, newest version first, of each of `agents` (the tenant's; another's has none),
 * in one statement: each page is `first` long (default 20, at most 100) and starts after `after`,
 * a cursor of that agent's releases (so with `after`, ask for its one agent). totalCount is every
 * release of the agent.
 */
export async function agentReleasePages(sql: Sql, tenant: string, agents: readonly string[], args: PageArgs = {}): Promise<Map<string, Connection<AgentRelease>>> {
  const size = pageSize(args.first);
  if (agents.length === 0) return new Map();
  const below = args.after
    ? agents.map((agent) => decodeScopedCursor(args.after as string, releasesScope(agent), ["integer"])[0] as number)
    : agents.map(() => null);
  const asked = agents.map((agent, i) => ({ agent, below: below[i] }));
  const rows = await sql.execute<{ agent: string; total: number; releases: AgentRelease[] }>(
    `WITH asked AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(agent text, below integer))
     SELECT asked.agent,
       (SELECT count(*)::int FROM agent_releases v WHERE v.tenant = ? AND v.agent = asked.agent) AS total,
       coalesce((SELECT jsonb_agg(r ORDER BY r.version DESC) FROM (
         SELECT ${RELEASE_SELECT} FROM agent_releases v
         WHERE v.tenant = ? AND v.agent = asked.agent AND (asked.below IS NULL OR v.version < asked.below)
         ORDER BY v.version DESC LIMIT ?
       ) r), '[]'::jsonb) AS releases
     FROM asked`,
    [JSON.stringify(asked), tenant, tenant, size + 1],
  );
  return new Map(rows.map((row) => [row.agent, connection(row.releases, size, row.total, releasesScope(row.agent), (release) => [release.version])]));
}
