// The backlog as data (guide "What to fix", reference-core §13.3): one item per fault entry of
// the recommendations, in their order, then one per distinct instruction change the judge
// proposed. Each names its scenarios and models, the fix, and the tools (and server) involved.
import { toolCallName } from "../replay/index.js";
import { isBlank, truncate } from "../support/index.js";
import { detailText } from "../diagnosis/text.js";
import { distinct, mostFrequent } from "./aggregates.js";
import { TOOL_NOTE_LIMIT } from "./summaryInputs.js";
import type {
  FixAction, FixItem, FixTool, Recommendation, ReportLinks, ReportResult, ToolResolver, ToolServer,
} from "./reportTypes.js";

interface FixItemContext {
  agentName: string;
  links: ReportLinks;
  toolResolver?: ToolResolver | null;
}

type ToolsLabel = "missing tools" | "suggested tools" | "failing tools";

/** A route template with `%{key}` filled; one that cannot be formatted comes back as written. */
export function fillLink(template: string | undefined, key?: string): string | null {
  if (template == null) return null;
  let failed = false;
  const filled = template.replace(/%(%|\{([^}]*)\}|.?)/g, (_match, what: string, name?: string) => {
    if (what === "%") return "%";
    if (name === "key" && key !== undefined) return key;
    failed = true;
    return "";
  });
  return failed ? template : filled;
}

const asStrings = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : null;

/** Expected tools a result could not have called: recorded as evidence, else worked out. */
export function unavailableTools(result: ReportResult): string[] {
  const evidence = result.diagnosis?.evidence ?? {};
  const recorded = asStrings(evidence.unavailable);
  if (recorded) return recorded;
  const roster = asStrings(evidence.tools_available);
  const exclude = new Set(roster ?? result.replay.toolCalls.map(toolCallName));
  return result.scenario.expectedTools.filter((tool) => !exclude.has(tool));
}

const isTruthy = (value: unknown): boolean => value !== null && value !== undefined && value !== false;

function suggestedNames(group: readonly ReportResult[]): string[] {
  const names: string[] = [];
  for (const result of group) {
    const name = result.diagnosis?.judge?.suggested_tool?.name;
    if (name) names.push(name);
  }
  return names;
}

function toolsFor(fault: string, group: readonly ReportResult[]): { label: ToolsLabel; tools: Map<string, string | null> } {
  const tools = new Map<string, string | null>();
  const addAll = (names: Iterable<string>): void => { for (const name of names) if (!tools.has(name)) tools.set(name, null); };
  if (fault === "expected_tool_not_called") {
    for (const result of group) addAll(unavailableTools(result));
    return { label: "missing tools", tools };
  }
  if (fault === "tool_error") {
    for (const result of group) {
      for (const call of result.replay.toolCalls) {
        const name = toolCallName(call);
        if (!isTruthy(call.error) || tools.has(name)) continue;
        // The detail as the diagnosis quotes it: a number or an object is text too (`503`, `{"code":500}`).
        const detail = detailText(call.detail);
        tools.set(name, isBlank(detail) ? null : truncate(detail, TOOL_NOTE_LIMIT));
      }
    }
    return { label: "failing tools", tools };
  }
  addAll(suggestedNames(group));
  if (fault === "missing_capability") for (const result of group) addAll(unavailableTools(result));
  return { label: "suggested tools", tools };
}

/** Asks the resolver once per tool name, remembering `null` answers too. */
function serverLookup(resolver: ToolResolver | null | undefined): (name: string) => ToolServer | null {
  const known = new Map<string, ToolServer | null>();
  return (name) => {
    if (!resolver) return null;
    if (known.has(name)) return known.get(name)!;
    const raw = resolver(name);
    const key = raw?.key == null ? "" : String(raw.key);
    const server = key === "" ? null : { key, name: raw?.name ? String(raw.name) : key, status: raw?.status ? String(raw.status) : "unknown" };
    known.set(name, server);
    return server;
  };
}

function sharedServer(tools: readonly FixTool[]): ToolServer | null {
  const first = tools[0]?.server;
  if (!first) return null;
  return tools.every((tool) => tool.server !== null && tool.server.key === first.key) ? first : null;
}

function actionFor(label: ToolsLabel, server: ToolServer | null, context: FixItemContext): FixAction {
  if (label === "missing tools" && server && server.status !== "enabled") {
    return { label: `Enable ${server.name} for ${context.agentName}`, hint: "MCP Services ->", path: fillLink(context.links.mcp, server.key) };
  }
  const text = label === "missing tools" ? "Open tools" : label === "failing tools" ? "Open failing tools" : "Open suggested tools";
  return { label: text, hint: "Tools ->", path: fillLink(context.links.tools) };
}

function faultItem(entry: Recommendation, group: readonly ReportResult[], context: FixItemContext, resolve: (name: string) => ToolServer | null): FixItem {
  const { label, tools: named } = toolsFor(entry.fault, group);
  const tools: FixTool[] = [...named].map(([name, note]) => ({ name, note, server: resolve(name) }));
  const hasTools = tools.length > 0;
  const missing = hasTools && label === "missing tools";
  let recommendation = entry.recommendation;
  let note: string | null = null;
  if (missing) {
    const reachable = group.filter((result) => unavailableTools(result).length > 0);
    recommendation = mostFrequent(reachable.map((r) => r.recommendation)) ?? entry.recommendation;
    const exceptions = group
      .filter((result) => unavailableTools(result).length === 0)
      .map((r) => `${r.scenario.key} is the exception: ${r.summary ?? ""} ${r.recommendation ?? ""}`.trim());
    note = exceptions.length > 0 ? distinct(exceptions).join(" ") : null;
  }
  const server = missing ? sharedServer(tools) : null;
  return {
    kind: "fault",
    fault: entry.fault,
    count: entry.count,
    scenario_keys: entry.scenario_keys,
    models: entry.models,
    recommendation,
    quote: null,
    tools_label: hasTools ? label : null,
    tools,
    server,
    note,
    action: hasTools ? actionFor(label, server, context) : null,
  };
}

function instructionItems(results: readonly ReportResult[], context: FixItemContext): FixItem[] {
  const groups = new Map<string, ReportResult[]>();
  for (const result of results) {
    const change = result.diagnosis?.judge?.instruction_change;
    if (typeof change !== "string" || change.trim() === "") continue;
    const sentence = change.trim();
    const group = groups.get(sentence);
    if (group) group.push(result);
    else groups.set(sentence, [result]);
  }
  return [...groups].map(([sentence, group]) => ({
    kind: "instruction",
    fault: "instruction change",
    count: group.length,
    scenario_keys: distinct(group.map((r) => r.scenario.key)),
    models: distinct(group.map((r) => r.label)),
    recommendation: null,
    quote: sentence,
    tools_label: null,
    tools: [],
    server: null,
    note: null,
    action: { label: "Add to instructions", hint: "Agent -> Instructions", path: fillLink(context.links.instructions) },
  }));
}

export function buildFixItems(results: readonly ReportResult[], entries: readonly Recommendation[], context: FixItemContext): FixItem[] {
  const byFault = new Map<string, ReportResult[]>();
  for (const result of results) {
    if (!result.fault) continue;
    const group = byFault.get(result.fault);
    if (group) group.push(result);
    else byFault.set(result.fault, [result]);
  }
  const resolve = serverLookup(context.toolResolver);
  const items = entries.map((entry) => faultItem(entry, byFault.get(entry.fault) ?? [], context, resolve));
  return items.concat(instructionItems(results, context));
}
