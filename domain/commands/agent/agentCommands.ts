// Agent commands (stream `agent-<digest>`, agentStream): recording the release an agent runs.
import { z } from "zod";
import { releaseDigest } from "../../events/agentEvents.js";
import { AGENT_NAME_MAX, idSchema, jsonObject, nonBlank } from "../../events/shared.js";
import { isStorableText, TEXT_RULE, unstorableTextPath } from "../../events/storableText.js";
import { manifestProblem } from "./releaseManifest.js";

/** The longest revision (a git SHA, a version, a deploy id) a release keeps. */
export const REVISION_MAX = 200;

const storable = (text: string) => isStorableText(text);

// Text is held to the rule stored text is, though the manifest is only digested: a lone surrogate
// is written as U+FFFD in the UTF-8 the digest is taken over, so two manifests would digest alike.
const manifestInput = z.unknown().superRefine((value, ctx) => {
  const shape = manifestProblem(value);
  const unstorable = shape === null ? unstorableTextPath(value, "manifest") : null;
  const problem = shape ?? (unstorable === null ? null : `${unstorable}: ${TEXT_RULE}`);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}).pipe(jsonObject);

/**
 * Records the release an agent of a tenant runs, named by its digest or by the manifest the
 * platform computes the digest from (releaseManifest.ts): exactly one of the two. The agent is
 * the name its evaluations carry (compared as stored, trimmed).
 */
export const RecordAgentRelease = z
  .object({
    type: z.literal("RecordAgentRelease"),
    tenant: idSchema,
    agent: nonBlank.max(AGENT_NAME_MAX, `must be at most ${AGENT_NAME_MAX} characters`).refine(storable, TEXT_RULE),
    digest: releaseDigest.nullable().default(null),
    manifest: manifestInput.nullable().default(null),
    /** Which build of the agent (a git SHA, a version): kept with the version it first names. */
    revision: nonBlank.max(REVISION_MAX, `must be at most ${REVISION_MAX} characters`).refine(storable, TEXT_RULE).nullable().default(null),
  })
  .superRefine((command, ctx) => {
    if (command.digest === null && command.manifest === null) ctx.addIssue({ code: "custom", path: ["digest"], message: "give a digest or a manifest" });
    if (command.digest !== null && command.manifest !== null) ctx.addIssue({ code: "custom", path: ["manifest"], message: "give a digest or a manifest, not both" });
  });
export type RecordAgentRelease = z.output<typeof RecordAgentRelease>;
