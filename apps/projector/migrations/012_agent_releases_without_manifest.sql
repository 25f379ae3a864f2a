-- agent_releases no longer keeps a manifest. It held the manifest a release's digest was computed
-- from with its secret-looking keys removed, which left secrets held in values (an Authorization
-- header pair, an env list's OPENAI_API_KEY, a URL's ?api_key= or user:password@, an argument
-- after --api-key) in a row any READ key could read. The platform now keeps only the digest
-- (domain/commands/agent/releaseManifest.ts), AgentReleaseRecorded v2 has no manifest, and a v1
-- event's is dropped when read. No PROJECTION_VERSION bump: the columns left are filled as
-- before, so rows projected before this migration are what a rebuild makes.
ALTER TABLE agent_releases DROP COLUMN manifest;
