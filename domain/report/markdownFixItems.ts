// "What to fix" in Markdown: one heading per fix item with its scenarios and models, the
// recommendation, the judge's quoted instruction change, the tools and server involved, and
// where the fix lives.
import { code, inline, quote } from "./markdownText.js";
import type { FixItem, FixTool, ToolServer } from "./reportTypes.js";
import { faultName } from "./faultName.js";

const codes = (values: readonly string[]): string => values.map((v) => code(v)).join(", ");

function serverText(server: ToolServer): string {
  return `${inline(server.name)} (${inline(server.status)})`;
}

function toolText(tool: FixTool): string {
  let text = code(tool.name);
  if (tool.note) text += ` — ${inline(tool.note)}`;
  if (tool.server) text += ` · served by ${serverText(tool.server)}`;
  return text;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One fix item, exactly as it reads under "What to fix". */
export function fixItemBlock(item: FixItem): string {
  const scope = `${item.count} ${item.count === 1 ? "result" : "results"}`;
  const lines = [`### ${inline(faultName(item.fault))} ×${item.count}`, ""];
  lines.push(`**Scenarios:** ${codes(item.scenario_keys)} · **Models:** ${codes(item.models)} (${scope})`);
  if (item.recommendation) lines.push("", inline(item.recommendation));
  if (item.quote) lines.push("", quote(`“${item.quote}”`));
  const facts: string[] = [];
  if (item.tools.length > 0) facts.push(`- ${capitalized(item.tools_label ?? "tools")}: ${item.tools.map(toolText).join(", ")}`);
  if (item.server) facts.push(`- Server: ${serverText(item.server)}`);
  if (item.note) facts.push(`- Note: ${inline(item.note)}`);
  if (item.action) {
    let where = `- Where: **${inline(item.action.label)}** · ${inline(item.action.hint)}`;
    if (item.action.path) where += ` ${code(item.action.path)}`;
    facts.push(where);
  }
  if (facts.length > 0) lines.push("", ...facts);
  return lines.join("\n");
}

/**
 * `## What to fix` (optionally for one model's items), or a line saying there is nothing
 * (`empty`, when the caller knows better than "Nothing to fix.": nothing was scored).
 */
export function fixItemsSection(items: readonly FixItem[], model?: string, empty = "Nothing to fix."): string {
  const heading = model === undefined ? "## What to fix" : `## What to fix for ${code(model)}`;
  const chosen = model === undefined ? items : items.filter((item) => item.models.includes(model));
  if (chosen.length === 0) return `${heading}\n\n${empty}`;
  return [heading, ...chosen.map(fixItemBlock)].join("\n\n");
}
