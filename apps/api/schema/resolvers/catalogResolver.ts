// Catalog queries (read models) and importCatalog (YAML -> Catalog -> ImportCatalog command).
import { Arg, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { z } from "zod";
import { Catalog, CATALOG_MAX_BYTES, catalogAggregate, catalogStream, handleCommand, importCatalogCommand, storableCatalog, storageRefusal, syncCatalogEvaluations } from "@verdict/domain";
import { listPage } from "@verdict/projector";
import type { ApiContext } from "../../server/context.js";
import { ApiError, notFound } from "../../server/errors.js";
import { CatalogConnection, CatalogNode } from "../types/catalog.js";
import { afterWrite, commandOptions, validInput } from "./commandSupport.js";
import { fromArgument } from "./inputArgument.js";
import { OVER_BUDGET } from "../../server/answerBudget.js";
import { MISSING_NULL } from "./missingNull.js";
import { PAGE_AFTER, WHOLE_LIST_FIRST } from "./pageArguments.js";

@ObjectType({ description: "What importCatalog recorded, and the evaluations it synced." })
class ImportCatalogPayload {
  @Field(() => String, { description: "The catalog's key, as the document names it (catalog(key:) reads it)." })
  key!: string;

  @Field(() => String, { description: "The SHA-256 of the document's canonical YAML, 64 lowercase hex: the same for the same catalog however it is written." })
  digest!: string;

  @Field(() => Boolean, { description: "False when the same document was already imported (a no-op)." })
  changed!: boolean;

  @Field(() => Int, { description: "The scenarios of the document, over all its products' sets." })
  scenarioCount!: number;

  @Field(() => [ID], {
    description:
      "Evaluations made from the catalog's sets (createEvaluation fromCatalogSet) that this import synced: scenarios a set dropped disabled (results kept), changed ones updated, the set's judge and criteria taken. Empty when nothing changed.",
  })
  syncedEvaluations!: string[];
}

const importInput = z.object({
  yaml: z.string().min(1, "must not be empty").refine((t) => Buffer.byteLength(t) <= CATALOG_MAX_BYTES, "is over the 2 MB limit"),
  sourcePath: z.string().max(500).nullish(),
});


/** A refusal of what the import would record, named as the document's: field `yaml`, its path in the document. */
function documentError(error: unknown): unknown {
  const rule = storageRefusal(error);
  return rule === null ? error : new ApiError("VALIDATION", `the catalog cannot be stored: ${rule}`, "yaml");
}

@Resolver()
export class CatalogResolver {
  @Query(() => CatalogConnection, { nullable: true, description: `The tenant's catalogs, by key; all of them unless \`first\` is given. ${OVER_BUDGET}` })
  async catalogs(
    @Arg("first", () => Int, { nullable: true, description: WHOLE_LIST_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<CatalogConnection> {
    return listPage((await context.deps.readModels.listCatalogs(context.principal.tenant)) as CatalogNode[], { first, after }, `catalogs of ${context.principal.tenant}`);
  }

  @Query(() => CatalogNode, { nullable: true, description: `A catalog of the tenant's; NOT_FOUND otherwise. ${MISSING_NULL}` })
  async catalog(@Arg("key", () => String, { description: "The catalog's key, as its document names it." }) key: string, @Ctx() context: ApiContext): Promise<CatalogNode> {
    const found = await context.deps.readModels.getCatalog(context.principal.tenant, key);
    if (!found) throw notFound("catalog", key, "key");
    return found as CatalogNode;
  }

  @Mutation(() => ImportCatalogPayload, { description: "Imports a catalog YAML document; the same document again changes nothing." })
  async importCatalog(
    @Arg("yaml", () => String, { description: "The catalog YAML document: not empty, at most 2 MB (UTF-8); one that does not parse or cannot be stored is VALIDATION naming its path." }) yaml: string,
    @Arg("sourcePath", () => String, { nullable: true, description: "Where the document came from (a file path), at most 500 characters: recorded with the import, kept as Catalog.source's path." }) sourcePath: string | null,
    @Ctx() context: ApiContext,
  ): Promise<ImportCatalogPayload> {
    const options = commandOptions(context);
    const input = validInput(importInput, { yaml, sourcePath }, "");
    const catalog = fromArgument("yaml", () => storableCatalog(Catalog.parse(input.yaml)));
    const command = importCatalogCommand(catalog, context.principal.tenant, { kind: "api", ...(input.sourcePath ? { path: input.sourcePath } : {}) });
    const handled = await handleCommand(context.deps.store, catalogAggregate, catalogStream(context.principal.tenant, catalog.key), command, options).catch((error: unknown) => {
      throw documentError(error);
    });
    // Synced after every import, a no-op one too: syncing appends nothing when nothing differs,
    // and finishes a sync an earlier import's process did not (catalogSync.ts). The read models
    // find the catalog's evaluations made before sets were followed, so those follow it too.
    const synced = await syncCatalogEvaluations(context.deps.store, context.principal.tenant, catalog.key, { ...options, directory: context.deps.readModels });
    await afterWrite(context, synced.position ?? handled.position, `catalog ${catalog.key}`);
    return { key: catalog.key, digest: catalog.digest, changed: handled.events.length > 0, scenarioCount: catalog.scenarioCount, syncedEvaluations: synced.evaluationIds };
  }
}
