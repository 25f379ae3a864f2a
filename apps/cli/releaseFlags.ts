// `verdict run --release DIGEST [--release-revision REV] [--release-label LABEL]`: the release of
// the agent the run scored, as the library's Runner and Report take it ({ digest, revision,
// label }) and under the rule an explicit release follows everywhere else: StartRun's
// (eventSchemas.releaseInput, what GraphQL's startRun(release:) is checked by): a digest that is
// not blank, each part at most 200 characters. So a report written here also imports
// (`evals import --run-id`: importReport takes a release of those three parts).
import { eventSchemas, type Release } from "@verdict/domain";
import type { ParsedFlags } from "./args.js";
import { CliError } from "./errors.js";

const FLAG_OF = { digest: "release", revision: "release-revision", label: "release-label" } as const;

/** The release the flags name, or null when none is given; a bad one is a usage error naming its flag and the rule. */
export function releaseFromFlags(command: string, flags: ParsedFlags): Release | null {
  const digest = flags.values.release;
  const revision = flags.values["release-revision"];
  const label = flags.values["release-label"];
  if (digest === undefined) {
    const part = revision !== undefined ? "release-revision" : label !== undefined ? "release-label" : null;
    if (part) throw new CliError(`verdict ${command}: --${part} needs --release DIGEST (a release is named by its digest, as startRun's is)`);
    return null;
  }
  const parsed = eventSchemas.releaseInput.safeParse({ digest, revision, label });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = FLAG_OF[issue.path[0] as keyof typeof FLAG_OF];
    const given = { digest, revision, label }[issue.path[0] as keyof typeof FLAG_OF] ?? "";
    throw new CliError(`verdict ${command}: --${flag}: ${issue.message} (it has ${given.length})`);
  }
  const release: Release = { digest: parsed.data.digest };
  if (parsed.data.revision) release.revision = parsed.data.revision;
  if (parsed.data.label) release.label = parsed.data.label;
  return release;
}
