// The report's renderings and public pieces, from the Report rebuilt out of recorded events.
import { Arg, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { ReportTheme } from "../types/enums.js";
import { RunReportNode } from "../types/report.js";
import type { ApiContext } from "../../server/context.js";
import { ApiError } from "../../server/errors.js";
import { runReportHtml } from "./runSupport.js";
import { checkRunModel } from "../../report/runModel.js";

@Resolver(() => RunReportNode)
export class ReportResolver {
  @FieldResolver(() => String)
  markdown(@Root() node: RunReportNode): string {
    return node.report.toMarkdown();
  }

  @FieldResolver(() => GraphQLJSON, { description: "The report document (snake_case keys, as the guide's library writes it)." })
  json(@Root() node: RunReportNode): unknown {
    return node.report.toJSON();
  }

  @FieldResolver(() => String, { description: "A self-contained HTML page." })
  html(@Root() node: RunReportNode, @Arg("theme", () => ReportTheme, { nullable: true }) theme: ReportTheme | null, @Ctx() context: ApiContext): Promise<string> {
    return runReportHtml(context, node.runId, theme ?? null);
  }

  @FieldResolver(() => String)
  verdictMarkdown(@Root() node: RunReportNode): string {
    return node.report.verdictMarkdown();
  }

  @FieldResolver(() => String)
  fixItemsMarkdown(@Root() node: RunReportNode, @Arg("model", () => String, { nullable: true }) model: string | null): string {
    // As report.md?part=fix_items answers it: a model not in the run is NOT_FOUND, not "Nothing to fix.".
    if (model) checkRunModel(model, node.report.models.map((m) => m.label));
    return node.report.fixItemsMarkdown(model ? { model } : {});
  }

  @FieldResolver(() => String)
  scenarioMarkdown(@Root() node: RunReportNode, @Arg("key", () => String) key: string): string {
    // As report.md?part=scenario answers it (the report itself throws a plain error: internal).
    if (!node.report.results.some((r) => r.scenario.key === key)) throw new ApiError("NOT_FOUND", `scenario ${key} is not in this run`, "key");
    return node.report.scenarioMarkdown(key);
  }
}
