// Stream `agent-<digest>` (agentStream): the releases of one agent of one tenant (reference-platform
// §1 #39, §2.5 AgentReleaseRecorded). A release is named by its digest, the first 12 hex
// characters of a SHA-256 (domain/commands/agent/releaseManifest.ts says over what); each new
// digest is cut the next version number, and one digest is always the same version.
import { z } from "zod";
import { defineEvent } from "./defineEvent.js";
import { jsonObject, nonBlank } from "./shared.js";

/** A release digest: the first 12 lowercase hex characters of a SHA-256, as the reference cuts them. */
export const RELEASE_DIGEST_PATTERN = /^[0-9a-f]{12}$/;
export const RELEASE_DIGEST_RULE = "must be 12 lowercase hex characters (the first 12 of a SHA-256)";
export const releaseDigest = z.string().regex(RELEASE_DIGEST_PATTERN, RELEASE_DIGEST_RULE);

/**
 * The agent's latest release is now `version` (`v<version>`, as a run pins it). `returned`: the
 * digest is an earlier version's (the agent went back to it), so `version` is that version's
 * number and `revision` the one it was first recorded with; a digest never gets a second number.
 * `manifest` is the manifest the digest was computed from with its secret-looking keys removed
 * (null when only the digest was given, and on a return: the version's first record holds it).
 */
export const AgentReleaseRecorded = defineEvent(
  "AgentReleaseRecorded",
  1,
  z.object({
    tenant: nonBlank,
    agent: nonBlank,
    version: z.number().int().positive(),
    digest: releaseDigest,
    revision: z.string().nullable(),
    manifest: jsonObject.nullable(),
    returned: z.boolean(),
  }),
);
