// The report's renderings and public pieces, from the Report rebuilt out of recorded events.
import { Arg, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { ReportTheme } from "../types/enums.js";
import { RunReportNode } from "../types/report.js";
import type { ApiContext } from "../../server/context.js";
import { runHistory, runReportHtml } from "./runSupport.js";
import { fixItemsPart, scenarioPart } from "../../report/reportParts.js";
import { reportDocumentOf } from "../../report/rebuildReport.js";
import { OVER_BUDGET } from "../../server/answerBudget.js";

@Resolver(() => RunReportNode)
export class ReportResolver {
  @FieldResolver(() => String, { nullable: true, description: OVER_BUDGET })
  markdown(@Root() node: RunReportNode): string {
    return node.report.toMarkdown();
  }

  @FieldResolver(() => GraphQLJSON, { nullable: true, description: `The report document (snake_case keys, as the guide's library writes it); an imported run's is the one it was imported with, as report.json serves it. ${OVER_BUDGET}` })
  async json(@Root() node: RunReportNode, @Ctx() context: ApiContext): Promise<unknown> {
    return reportDocumentOf(await runHistory(context, node.runId), node.report);
  }

  @FieldResolver(() => String, { nullable: true, description: `A self-contained HTML page. ${OVER_BUDGET}` })
  html(@Root() node: RunReportNode, @Arg("theme", () => ReportTheme, { nullable: true, description: "LIGHT or DARK colours; omitted, the page follows the reader's system setting." }) theme: ReportTheme | null, @Ctx() context: ApiContext): Promise<string> {
    return runReportHtml(context, node.runId, theme ?? null);
  }

  @FieldResolver(() => String, { nullable: true, description: OVER_BUDGET })
  verdictMarkdown(@Root() node: RunReportNode): string {
    return node.report.verdictMarkdown();
  }

  @FieldResolver(() => String, { nullable: true, description: `What to fix; with model (one of the run's labels, else NOT_FOUND; blank is VALIDATION), that model's items. ${OVER_BUDGET}` })
  fixItemsMarkdown(@Root() node: RunReportNode, @Arg("model", () => String, { nullable: true, description: "One of the run's model labels: only that model's items (else NOT_FOUND; blank is VALIDATION); omitted, every model's." }) model: string | null): string {
    // As report.md?part=fix_items answers it: a model not in the run is NOT_FOUND, not "Nothing to fix.".
    return fixItemsPart(node.report, model);
  }

  @FieldResolver(() => String, { nullable: true, description: `One scenario's block; a selected scenario not scored yet says so; a key not in the run is NOT_FOUND. ${OVER_BUDGET}` })
  async scenarioMarkdown(@Root() node: RunReportNode, @Arg("key", () => String, { description: "A scenario key of the run's selection (else NOT_FOUND)." }) key: string, @Ctx() context: ApiContext): Promise<string> {
    // As report.md?part=scenario answers it (the report itself throws a plain error: internal).
    return scenarioPart(node.report, await runHistory(context, node.runId), key, "key");
  }
}
