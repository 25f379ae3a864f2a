// Stream `agent-<digest>` (agentStream): the releases of one agent of one tenant (reference-platform
// §1 #39, §2.5 AgentReleaseRecorded). A release is named by its digest, the first 12 hex
// characters of a SHA-256 (domain/commands/agent/releaseManifest.ts says over what); each new
// digest is cut the next version number, and one digest is always the same version.
import { z } from "zod";
import { defineEvent } from "./defineEvent.js";
import { nonBlank } from "./shared.js";

/** A release digest: the first 12 lowercase hex characters of a SHA-256, as the reference cuts them. */
export const RELEASE_DIGEST_PATTERN = /^[0-9a-f]{12}$/;
export const RELEASE_DIGEST_RULE = "must be 12 lowercase hex characters (the first 12 of a SHA-256)";
export const releaseDigest = z.string().regex(RELEASE_DIGEST_PATTERN, RELEASE_DIGEST_RULE);

/**
 * The agent's latest release is now `version` (`v<version>`, as a run pins it). `returned`: the
 * digest is an earlier version's (the agent went back to it), so `version` is that version's
 * number and `revision` the one it was first recorded with; a digest never gets a second number.
 * No manifest: the platform only computes the digest from one (releaseManifest.ts) and never
 * keeps it, since a secret in it that the digest's rules do not recognize would stay in the log
 * for good, read by any READ key.
 *
 * v1 carried `manifest` (the manifest with its secret-looking keys removed, which missed secrets
 * held in values: header pairs, env lists, URLs, arguments). The upcaster drops it, so a v1
 * event is read, folded and projected as if it never had one; the v2 schema would strip it too.
 */
export const AgentReleaseRecorded = defineEvent(
  "AgentReleaseRecorded",
  2,
  z.object({
    tenant: nonBlank,
    agent: nonBlank,
    version: z.number().int().positive(),
    digest: releaseDigest,
    revision: z.string().nullable(),
    returned: z.boolean(),
  }),
  { 1: ({ manifest: _manifest, ...data }) => data },
);
