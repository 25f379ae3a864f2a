// Agents and their releases (reference-platform §1 #39-40): recordAgentRelease appends to the
// agent's own stream through the domain's command; the queries read the read models, tenant-scoped
// (another tenant's agent of the same name is another agent, unseen here). Both lists are pages
// (`first`/`after`), so the query's price counts them as the other connections are counted and
// aliases cannot multiply a whole list (queryLimits.ts); a page of agents reads its agents'
// releases with one query (agentReleaseLoader.ts).
import { Arg, Ctx, Field, FieldResolver, Int, Mutation, ObjectType, Query, Resolver, Root } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { recordAgentRelease } from "@verdict/domain";
import type { ApiContext } from "../../server/context.js";
import { agentReleasePage } from "../../server/agentReleaseLoader.js";
import { notFound } from "../../server/errors.js";
import { AgentConnection, AgentNode, AgentReleaseConnection } from "../types/agent.js";
import { ReleaseOutcome } from "../types/enums.js";
import { afterCommand, commandOptions } from "./commandSupport.js";
import { MISSING_NULL } from "./missingNull.js";
import { PAGE_AFTER, PAGE_FIRST } from "./pageArguments.js";

@ObjectType({ description: "What recordAgentRelease recorded: the agent's version for the digest, and whether it is new." })
class RecordAgentReleasePayload {
  @Field(() => String, { description: "The agent, as stored (trimmed)." })
  agentName!: string;

  @Field(() => Int, { description: "The version the digest names, now the agent's latest." })
  version!: number;

  @Field(() => String, { description: "`v<version>`: what runs started from now pin." })
  label!: string;

  @Field(() => String, { description: "The release's digest, 12 lowercase hex: as given, or computed from the manifest." })
  digest!: string;

  @Field(() => String, { nullable: true, description: "The revision the version was first recorded with." })
  revision!: string | null;

  @Field(() => ReleaseOutcome, { description: "NEW (a new version), RETURNED (an earlier version is the latest again) or UNCHANGED (already the latest: nothing recorded)." })
  outcome!: ReleaseOutcome;

  @Field(() => AgentNode, { nullable: true, description: "Null until the read models have it (no projector wait configured)." })
  agent!: AgentNode | null;
}

@Resolver(() => AgentNode)
export class AgentResolver {
  @Query(() => AgentConnection, {
    nullable: true,
    description: `The tenant's agents (every name its evaluations or recorded releases carry), by name: \`first\` (default 20, at most 100) after \`after\`. ${MISSING_NULL}`,
  })
  async agents(
    @Arg("first", () => Int, { nullable: true, description: PAGE_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<AgentConnection> {
    return (await context.deps.readModels.listAgents(context.principal.tenant, { first: first ?? undefined, after })) as AgentConnection;
  }

  @Query(() => AgentNode, {
    nullable: true,
    description: `The tenant's agent of that name (as its evaluations carry it, trimmed); NOT_FOUND when none of its evaluations or releases names it. ${MISSING_NULL}`,
  })
  async agent(@Arg("name", () => String, { description: "The agent's name, as its evaluations carry it; trimmed before it is looked up." }) name: string, @Ctx() context: ApiContext): Promise<AgentNode> {
    const found = await context.deps.readModels.getAgent(context.principal.tenant, name.trim());
    if (!found) throw notFound("agent", name, "name");
    return found as AgentNode;
  }

  @FieldResolver(() => AgentReleaseConnection, {
    description: "Its versions, newest (highest number) first: `first` (default 20, at most 100) after `after`. Every agent of a page is read with one query.",
  })
  async releases(
    @Root() agent: AgentNode,
    @Arg("first", () => Int, { nullable: true, description: PAGE_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<AgentReleaseConnection> {
    return (await agentReleasePage(context, agent.name, { first: first ?? undefined, after })) as AgentReleaseConnection;
  }

  @Mutation(() => RecordAgentReleasePayload, {
    description:
      "Records the release an agent runs, by its digest (12 lowercase hex) or by its manifest (a JSON object: the digest is the first 12 hex of the SHA-256 " +
      "of its canonical JSON, keys sorted, its credentials left out first: secret-looking keys' scalar values (api_key, token, secret, password, authorization...), " +
      "the value of a header or env pair named so, credential-shaped text (sk-…, ghp_…, Bearer …, a JWT...), a URL's user:password@ and secret query parameters, " +
      "and the argument after a flag such as --api-key; rotating those is the same release, while a secret the rules do not recognize changes the digest). " +
      "The manifest is only digested: it is never stored, in the event log, the read models or any answer. " +
      "A new digest is the next version (v1, v2, ...); the latest digest again records nothing; an earlier version's digest makes that version the latest again. " +
      "Runs started afterwards without a release pin the latest.",
  })
  async recordAgentRelease(
    @Arg("agent", () => String, { description: "The agent, as its evaluations name it." }) agent: string,
    @Arg("digest", () => String, { nullable: true, description: "The release's digest, 12 lowercase hex (another text is VALIDATION); give it or manifest, not both." }) digest: string | null,
    @Arg("manifest", () => GraphQLJSON, { nullable: true, description: "What the agent's model is given (provider, model, options, instructions, tools...): at most 64 KiB as JSON, 32 levels deep." })
    manifest: unknown,
    @Arg("revision", () => String, { nullable: true, description: "The build (a git SHA, a version), at most 200 characters: kept with the version it first names." }) revision: string | null,
    @Ctx() context: ApiContext,
  ): Promise<RecordAgentReleasePayload> {
    const options = commandOptions(context);
    const tenant = context.principal.tenant;
    const input = { tenant, agent, digest: digest ?? null, manifest: manifest ?? null, revision: revision ?? null };
    const { handled, release, outcome } = await recordAgentRelease(context.deps.store, input, options);
    const agentName = handled.state.agent as string;
    await afterCommand(context, handled, `release v${release.version} of agent ${agentName}`);
    return {
      agentName, version: release.version, label: `v${release.version}`, digest: release.digest, revision: release.revision, outcome: outcome as ReleaseOutcome,
      agent: (await context.deps.readModels.getAgent(tenant, agentName)) as AgentNode | null,
    };
  }
}
