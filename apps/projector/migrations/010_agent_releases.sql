-- Agents' releases (reference-platform §1 #39-40, §2.1 agent_versions): AgentReleaseRecorded, on the
-- agent's own stream, cuts one version per digest. `agent_releases` holds every version as first
-- recorded (its manifest without secrets, null when only the digest was given); `agents` holds the
-- agent's latest version, which a return to an earlier version's digest moves back, and since when.
-- An evaluation's headline run is its newest (highest-numbered) COMPLETED run: its standing
-- (current, stale, unrecorded, archived, none) is read from it, the run's pinned release and the
-- agent's latest release (apps/projector/readModels/standing.ts). Agents are filled from the log:
-- PROJECTION_VERSION 3 rebuilds read models projected before; the headline is filled here too, from
-- the runs a read database already holds, as a rebuild fills it.
CREATE TABLE agents (
  tenant text NOT NULL,
  name text NOT NULL,
  latest_version integer NOT NULL,
  latest_digest text NOT NULL,
  latest_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, name)
);

CREATE TABLE agent_releases (
  tenant text NOT NULL,
  agent text NOT NULL,
  version integer NOT NULL,
  digest text NOT NULL,
  revision text,
  manifest jsonb,
  recorded_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, agent, version)
);

ALTER TABLE evaluations ADD COLUMN headline_run_id text, ADD COLUMN headline_run_number integer;
UPDATE evaluations SET
  headline_run_number = (SELECT max(r.number) FROM runs r WHERE r.evaluation_id = evaluations.id AND r.status = 'COMPLETED'),
  headline_run_id = (SELECT r.id FROM runs r WHERE r.evaluation_id = evaluations.id AND r.status = 'COMPLETED' ORDER BY r.number DESC, r.id LIMIT 1);
