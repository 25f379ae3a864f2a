// The GraphQL schema, built from the type-graphql resolvers. Import "reflect-metadata" before
// this module (every entry point does).
import { buildSchema } from "type-graphql";
import type { GraphQLSchema } from "graphql";
import { createPubSub } from "@graphql-yoga/subscription";
import { AgentResolver } from "./resolvers/agentResolver.js";
import { AuditResolver } from "./resolvers/auditResolver.js";
import { CatalogResolver } from "./resolvers/catalogResolver.js";
import { EvaluationResolver } from "./resolvers/evaluationResolver.js";
import { KpiMutations } from "./resolvers/kpiMutations.js";
import { EvaluationKpiResolver, RunKpiResolver } from "./resolvers/kpiResolver.js";
import { ReportResolver } from "./resolvers/reportResolver.js";
import { RunMutations } from "./resolvers/runMutations.js";
import { RunResolver } from "./resolvers/runResolver.js";
import { SubscriptionResolver } from "./resolvers/subscriptionResolver.js";
import { UsagePartResolver } from "./resolvers/usagePartResolver.js";
import { UsageResolver } from "./resolvers/usageResolver.js";
import { chargingHeavyFields } from "../server/heavyFields.js";

const RESOLVERS = [CatalogResolver, EvaluationResolver, RunResolver, UsagePartResolver, ReportResolver, RunMutations, AgentResolver, AuditResolver, UsageResolver, SubscriptionResolver, EvaluationKpiResolver, RunKpiResolver, KpiMutations] as const;

let built: Promise<GraphQLSchema> | null = null;

/**
 * One schema per process (type-graphql's metadata is global), its heavy fields charged to each
 * request's answer budget (wrapped once: twice, a field would wait for its own turn).
 */
export function buildApiSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: [...RESOLVERS],
    validate: false,
    emitSchemaFile: false,
    // Required by type-graphql for @Subscription; ours use their own `subscribe` sources.
    pubSub: createPubSub(),
  }).then(chargingHeavyFields);
  return built;
}
