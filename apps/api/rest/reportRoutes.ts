// REST exports of a run's report (reference-platform §6.2), rebuilt from recorded events:
//   GET /api/evaluations/:id/runs/:runId/report        HTML (?theme=light|dark)
//   GET /api/evaluations/:id/runs/:runId/report.md     Markdown (?part=verdict|fix_items|scenario, model=, scenario=)
//   GET /api/evaluations/:id/runs/:runId/report.json   the version-1 envelope
//   GET /api/evaluation_reports/:run_id                the same envelope, by the host's handle (§6.3):
//                                                      a run's id, or a published run's own run_id
// A run not found is NOT_FOUND naming the path parameter it came in: `runId`, or `run_id`.
// `?download=1` adds Content-Disposition: attachment; filename="<evaluation>-run-<n>.<ext>".
// A query parameter a route does not take is VALIDATION naming it (a typo such as `?them=dark` was
// ignored, while `?theme=bogus` was refused).
import { Router, type Request, type Response } from "express";
import { evaluationAggregate, evaluationStream, isStorableText, isValidId, loadAggregate, TEXT_RULE, type Report } from "@verdict/domain";
import { requestContext, type ApiContext } from "../server/context.js";
import { ApiError, notFound } from "../server/errors.js";
import { refuseUnknownQuery } from "./queryParameters.js";
import { jsonOrTooLarge, PAGE_INSTEAD } from "../server/tooLargeJson.js";
import { reportEnvelope, unrenderable } from "../report/rebuildReport.js";
import { loadByHandle, type RunHistory } from "../report/runEvents.js";
import { fixItemsPart, scenarioPart } from "../report/reportParts.js";
import { runHistory, runReport, runReportHtml } from "../schema/resolvers/runSupport.js";
import { ownEvaluation } from "../schema/resolvers/commandSupport.js";
import { holdWhileSent, renderInSlot } from "./heldWhileSent.js";

const PARTS = ["verdict", "fix_items", "scenario"] as const;
/** `auto` (as `verdict report --theme auto`) is the page without a theme: it follows the reader's system. */
const THEMES = ["light", "dark", "auto"] as const;

interface Located {
  history: RunHistory;
  evaluationName: string;
  agent: string;
  number: number;
}

/** The path parameter a route names its run by (a NOT_FOUND's field): the host's handle is `run_id`, as §6.3 spells it. */
type RunField = "runId" | "run_id";

/**
 * The run and its evaluation (null: the run's own), each NOT_FOUND when missing or another
 * tenant's, a missing run naming `runField`.
 */
async function locate(context: ApiContext, evaluationId: string | null, runId: string, runField: RunField): Promise<Located> {
  if (evaluationId !== null && !isValidId(evaluationId)) throw notFound("evaluation", evaluationId);
  const history = await runHistory(context, runId, runField).catch(async (error: unknown) => {
    throw isNotFound(error) ? await missing(context, evaluationId, runId, runField) : error;
  });
  const head = history.record?.started ?? history.imported;
  if (!head || (evaluationId !== null && head.evaluation_id !== evaluationId)) throw await missing(context, evaluationId, runId, runField);
  const { state } = await loadAggregate(context.deps.store, evaluationAggregate, evaluationStream(head.evaluation_id));
  if (!state.exists || state.tenant !== context.principal.tenant) throw evaluationId === null ? notFound("run", runId, runField) : notFound("evaluation", evaluationId);
  return { history, evaluationName: state.name ?? head.evaluation_id, agent: state.agent ?? "agent", number: head.number };
}

/**
 * What a path that finds no run names: the evaluation when it is not one of the tenant's (a
 * mistyped evaluation id read as a missing run), else the run. Another tenant's evaluation is
 * named as missing, as an unknown one is.
 */
async function missing(context: ApiContext, evaluationId: string | null, runId: string, runField: RunField): Promise<ApiError> {
  if (evaluationId !== null) {
    try {
      // Asks the read models first: another tenant's evaluation stream is never read.
      await ownEvaluation(context, evaluationId);
    } catch (error) {
      if (isNotFound(error)) return notFound("evaluation", evaluationId);
      throw error;
    }
  }
  return notFound("run", runId, runField);
}

const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.apiCode === "NOT_FOUND";

/** `<evaluation>-run-<n>.<ext>`, the evaluation name made safe for a file name ("/" -> "-"). */
export function downloadName(evaluationName: string, number: number, ext: "html" | "md" | "json"): string {
  const base = evaluationName.replace(/[/\\]+/g, "-").replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[.-]+/, "") || "evaluation";
  return `${base}-run-${number}.${ext}`;
}

function query(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new ApiError("VALIDATION", `${name} must be given once`, name);
  // As GraphQL arguments are (inputText.ts): no report holds such text, and an answer echoing it back helps no one.
  if (!isStorableText(value)) throw new ApiError("VALIDATION", `${name} ${TEXT_RULE}`, name);
  return value;
}

/** A report rendered, and how it is sent. */
interface Rendered {
  located: Located;
  ext: "html" | "md" | "json";
  type: string;
  body: string;
}

/** Whether `?download=1` asks for an attachment; anything but 1 or 0 is refused. */
function downloadAsked(req: Request): boolean {
  const download = query(req, "download");
  if (download !== undefined && download !== "1" && download !== "0") {
    throw new ApiError("VALIDATION", `download must be 1 (an attachment) or 0 (got ${JSON.stringify(download)})`, "download");
  }
  return download === "1";
}

function send(res: Response, download: boolean, { located, ext, type, body }: Rendered): void {
  res.type(type);
  if (download) {
    res.setHeader("Content-Disposition", `attachment; filename="${downloadName(located.evaluationName, located.number, ext)}"`);
  }
  res.send(body);
}

/** `?part=` and what it needs, refused (VALIDATION) before anything is loaded: the whole report when none. */
function partAsked(req: Request): { part: (typeof PARTS)[number] | undefined; key: string | undefined } {
  const part = query(req, "part");
  if (part === undefined) return { part, key: undefined };
  if (!(PARTS as readonly string[]).includes(part)) {
    throw new ApiError("VALIDATION", `part must be one of ${PARTS.join(", ")} (got ${JSON.stringify(part)})`, "part");
  }
  const key = part === "scenario" ? query(req, "scenario") ?? query(req, "key") : undefined;
  if (part === "scenario" && !key) throw new ApiError("VALIDATION", "part=scenario needs scenario=<key>", "scenario");
  return { part: part as (typeof PARTS)[number], key };
}

function markdownPart(report: Report, history: RunHistory, req: Request): string {
  const { part, key } = partAsked(req);
  if (part === undefined) return report.toMarkdown();
  if (part === "verdict") return report.verdictMarkdown();
  if (part === "fix_items") return fixItemsPart(report, query(req, "model"));
  return scenarioPart(report, history, key!, "scenario");
}

/** `?theme=`: light, dark, or auto / none (the reader's system); anything else is VALIDATION. */
function themeAsked(req: Request): "light" | "dark" | null {
  const theme = query(req, "theme");
  if (theme !== undefined && !(THEMES as readonly string[]).includes(theme)) {
    throw new ApiError("VALIDATION", `theme must be light, dark or auto (got ${JSON.stringify(theme)})`, "theme");
  }
  return theme === "light" || theme === "dark" ? theme : null;
}

/** A route's path parameters: the run's and its evaluation's ids, or the host's handle. */
type RunParams = { id: string; runId: string };
type Params = RunParams | { run_id: string };
type Handler<P extends Params> = (req: Request<P>, res: Response) => Promise<void>;
type Render<P extends Params> = (req: Request<P>, context: ApiContext) => Promise<Rendered>;

/**
 * A report route: loaded and rendered in one of the tenant's load slots, its body held from the
 * answer pool while it is sent. `accepted`: the query parameters it takes (`download` always).
 */
function route<P extends Params = RunParams>(accepted: readonly string[], render: Render<P>, checkQuery: (req: Request<P>) => unknown = () => undefined): Handler<P> {
  const parameters = [...accepted, "download"];
  return async (req, res) => {
    const context = requestContext(req);
    // Checked first: a request that can never succeed is not told to retry (503) while the pool
    // is busy, nor made to wait for a load slot to learn so.
    refuseUnknownQuery(req, parameters);
    const download = downloadAsked(req);
    checkQuery(req);
    const rendered = await renderInSlot(context, res, () => render(req, context));
    holdWhileSent(context, res, rendered.body);
    send(res, download, rendered);
  };
}

/** The run's version-1 envelope; an imported document that cannot be rendered is still served, as stored. */
async function renderedEnvelope(context: ApiContext, located: Located): Promise<Rendered> {
  const runId = located.history.runId;
  const report = await runReport(context, runId).catch((error) => (located.history.imported ? unrenderable(error) : Promise.reject(error)));
  const envelope = reportEnvelope(located.history, located.evaluationName, located.agent, report);
  const text = jsonOrTooLarge(envelope, "the run's report", PAGE_INSTEAD, 2);
  return { located, ext: "json", type: "application/json; charset=utf-8", body: `${text}\n` };
}

export function reportRouter(): Router {
  const router = Router();
  router.get("/evaluations/:id/runs/:runId/report", route<RunParams>(["theme"], async (req, context) => {
    const located = await locate(context, req.params.id, req.params.runId, "runId");
    const html = await runReportHtml(context, req.params.runId, themeAsked(req));
    return { located, ext: "html", type: "text/html; charset=utf-8", body: html };
  }, themeAsked));
  router.get("/evaluations/:id/runs/:runId/report.md", route<RunParams>(["part", "model", "scenario", "key"], async (req, context) => {
    const located = await locate(context, req.params.id, req.params.runId, "runId");
    return { located, ext: "md", type: "text/markdown; charset=utf-8", body: markdownPart(await runReport(context, req.params.runId), located.history, req) };
  }, partAsked));
  router.get("/evaluations/:id/runs/:runId/report.json", route([], async (req, context) => renderedEnvelope(context, await locate(context, req.params.id, req.params.runId, "runId"))));
  router.get("/evaluation_reports/:run_id", route<{ run_id: string }>([], async (req, context) => {
    const history = await loadByHandle(context.principal.tenant, req.params.run_id, (runId) => runHistory(context, runId, "run_id"));
    return renderedEnvelope(context, await locate(context, null, history.runId, "run_id"));
  }));
  return router;
}
