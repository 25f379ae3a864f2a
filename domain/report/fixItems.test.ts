import { describe, expect, it, vi } from "vitest";
import { recommendations } from "./aggregates.js";
import { buildFixItems, fillLink, unavailableTools } from "./fixItems.js";
import { fakeResult } from "./testing.js";
import type { ReportResult } from "./reportTypes.js";

const etnc = (recommendation: string, evidence: Record<string, unknown> = {}) => ({
  fault: "expected_tool_not_called", summary: "Expected refund_order to be called.", recommendation, evidence,
});

function items(results: ReportResult[], options: Partial<Parameters<typeof buildFixItems>[2]> = {}) {
  return buildFixItems(results, recommendations(results), { agentName: "the agent", links: {}, ...options });
}

describe("fix items", () => {
  it("reads exactly as the guide's example for a missing tool behind a server that is not enabled", () => {
    const results = [
      fakeResult({ key: "refund_1", label: "gpt-5-mini", expectedTools: ["refund_order"], diagnosis: etnc("Enable refund_order for the agent.", { unavailable: ["refund_order"] }) }),
      fakeResult({ key: "refund_2", label: "ollama/qwen3:8b", expectedTools: ["refund_order"], diagnosis: etnc("Enable refund_order for the agent.", { unavailable: ["refund_order"] }) }),
      fakeResult({ key: "refund_3", label: "gpt-5-mini", expectedTools: ["refund_order"], diagnosis: etnc("Enable refund_order for the agent.", { tools_available: ["lookup_order"] }) }),
    ];
    const resolver = vi.fn((name: string) => (name === "refund_order" ? { key: "orders", name: "Orders", status: "available" } : null));
    const [item] = items(results, { agentName: "SupportAgent", links: { mcp: "/mcp/%{key}" }, toolResolver: resolver });
    expect(item).toEqual({
      kind: "fault",
      fault: "expected_tool_not_called",
      count: 3,
      scenario_keys: ["refund_1", "refund_2", "refund_3"],
      models: ["gpt-5-mini", "ollama/qwen3:8b"],
      recommendation: "Enable refund_order for the agent.",
      quote: null,
      tools_label: "missing tools",
      tools: [{ name: "refund_order", note: null, server: { key: "orders", name: "Orders", status: "available" } }],
      server: { key: "orders", name: "Orders", status: "available" },
      note: null,
      action: { label: "Enable Orders for SupportAgent", hint: "MCP Services ->", path: "/mcp/orders" },
    });
    expect(Object.keys(item)).toEqual(["kind", "fault", "count", "scenario_keys", "models", "recommendation", "quote", "tools_label", "tools", "server", "note", "action"]);
    expect(resolver).toHaveBeenCalledTimes(1);
  });

  it("names the exceptions among missing-tool results and takes the recommendation from the others", () => {
    const results = [
      fakeResult({ key: "a", label: "m", expectedTools: ["refund_order"], diagnosis: etnc("Enable it.", { unavailable: ["refund_order"] }) }),
      fakeResult({ key: "b", label: "m", expectedTools: ["lookup"], diagnosis: etnc("Call lookup.", { unavailable: [] }) }),
      fakeResult({ key: "c", label: "m", expectedTools: ["lookup"], diagnosis: etnc("Call lookup.", { unavailable: [] }) }),
    ];
    const [item] = items(results, { links: { tools: "/tools" } });
    expect(item.recommendation).toBe("Enable it.");
    expect(item.note).toBe("b is the exception: Expected refund_order to be called. Call lookup. c is the exception: Expected refund_order to be called. Call lookup.");
    expect(item.server).toBeNull();
    expect(item.action).toEqual({ label: "Open tools", hint: "Tools ->", path: "/tools" });
  });

  it("names no item server when the missing tools live on different servers, and offers Open tools", () => {
    const results = [fakeResult({ key: "a", label: "m", expectedTools: ["refund_order", "send_email"], diagnosis: etnc("Enable them.", { unavailable: ["refund_order", "send_email"] }) })];
    const servers: Record<string, { key: string; name: string; status: string }> = {
      refund_order: { key: "orders", name: "Orders", status: "available" },
      send_email: { key: "mail", name: "Mail", status: "available" },
    };
    const [item] = items(results, { links: { tools: "/tools", mcp: "/mcp/%{key}" }, toolResolver: (name) => servers[name] ?? null });
    expect(item.tools.map((t) => t.server?.key)).toEqual(["orders", "mail"]);
    expect(item.server).toBeNull();
    expect(item.action).toEqual({ label: "Open tools", hint: "Tools ->", path: "/tools" });
  });

  it("offers Open tools, not Enable, when the missing tool's server is already enabled", () => {
    const results = [fakeResult({ key: "a", label: "m", expectedTools: ["refund_order"], diagnosis: etnc("Call refund_order.", { unavailable: ["refund_order"] }) })];
    const [item] = items(results, { links: { tools: "/tools", mcp: "/mcp/%{key}" }, toolResolver: () => ({ key: "orders", name: "Orders", status: "enabled" }) });
    expect(item.server).toEqual({ key: "orders", name: "Orders", status: "enabled" });
    expect(item.action).toEqual({ label: "Open tools", hint: "Tools ->", path: "/tools" });
  });

  it("reads a server the resolver gives no status as unknown, named by its key, and offers to enable it", () => {
    const results = [fakeResult({ key: "a", label: "m", expectedTools: ["refund_order"], diagnosis: etnc("Enable refund_order.", { unavailable: ["refund_order"] }) })];
    const [item] = items(results, { agentName: "SupportAgent", links: { mcp: "/mcp/%{key}" }, toolResolver: () => ({ key: "orders" }) });
    expect(item.server).toEqual({ key: "orders", name: "orders", status: "unknown" });
    expect(item.action).toEqual({ label: "Enable orders for SupportAgent", hint: "MCP Services ->", path: "/mcp/orders" });
  });

  it("lists failing tools with their detail cut to 60 characters", () => {
    const detail = "x".repeat(80);
    const results = [fakeResult({
      key: "a", label: "m",
      toolCalls: [{ name: "search", error: true, detail }, { name: "search", error: true, detail: "second" }, { name: "ok" }, { name: "db", error: "timeout", detail: "  " }],
      diagnosis: { fault: "tool_error", summary: "s", recommendation: "Fix search." },
    })];
    const [item] = items(results);
    expect(item.tools_label).toBe("failing tools");
    expect(item.tools).toEqual([
      { name: "search", note: `${"x".repeat(57)}...`, server: null },
      { name: "db", note: null, server: null },
    ]);
    expect(item.action).toEqual({ label: "Open failing tools", hint: "Tools ->", path: null });
  });

  it("notes a failing tool's detail that is a number or an object, as the diagnosis quotes it", () => {
    const results = [fakeResult({
      key: "a", label: "m",
      toolCalls: [{ name: "search", error: true, detail: { code: 500, message: "boom" } }, { name: "db", error: true, detail: 503 }],
      diagnosis: { fault: "tool_error", summary: "s", recommendation: "Fix search." },
    } as never)];
    expect(items(results)[0].tools).toEqual([
      { name: "search", note: '{"code":500,"message":"boom"}', server: null },
      { name: "db", note: "503", server: null },
    ]);
  });

  it("suggests the judge's tools, then unavailable ones for missing_capability", () => {
    const results = [fakeResult({
      key: "a", label: "m", expectedTools: ["export_csv"],
      diagnosis: { fault: "missing_capability", summary: "s", recommendation: "r", evidence: { tools_available: [] }, judge: { suggested_tool: { name: "report_builder", description: "" } } },
    })];
    const [item] = items(results);
    expect(item.tools.map((t) => t.name)).toEqual(["report_builder", "export_csv"]);
    expect(item.tools_label).toBe("suggested tools");
    expect(item.action?.label).toBe("Open suggested tools");
  });

  it("has no tools, label or action when nothing names a tool", () => {
    const [item] = items([fakeResult({ key: "a", label: "m", diagnosis: { fault: "low_quality", summary: "s", recommendation: "r" } })]);
    expect(item).toMatchObject({ tools_label: null, tools: [], server: null, action: null });
  });

  it("adds one instruction item per distinct instruction change, after the fault items", () => {
    const judge = (change: string) => ({ fault: "low_quality", summary: "s", recommendation: "r", judge: { instruction_change: change } });
    const results = [
      fakeResult({ key: "a", label: "m1", diagnosis: judge("Always look the order up. ") }),
      fakeResult({ key: "b", label: "m2", diagnosis: judge("Always look the order up.") }),
      fakeResult({ key: "c", label: "m2", diagnosis: judge("Cite the policy.") }),
    ];
    const list = items(results, { links: { instructions: "/agent/instructions" } });
    expect(list.map((i) => i.kind)).toEqual(["fault", "instruction", "instruction"]);
    expect(list[1]).toEqual({
      kind: "instruction", fault: "instruction change", count: 2, scenario_keys: ["a", "b"], models: ["m1", "m2"],
      recommendation: null, quote: "Always look the order up.", tools_label: null, tools: [], server: null, note: null,
      action: { label: "Add to instructions", hint: "Agent -> Instructions", path: "/agent/instructions" },
    });
  });

  it("works out unavailable tools from evidence, else from the calls", () => {
    const base = { key: "a", label: "m", expectedTools: ["x", "y"] };
    expect(unavailableTools(fakeResult({ ...base, diagnosis: { fault: "f", evidence: { unavailable: ["y"] } } }))).toEqual(["y"]);
    expect(unavailableTools(fakeResult({ ...base, diagnosis: { fault: "f", evidence: { tools_available: ["x"] } } }))).toEqual(["y"]);
    expect(unavailableTools(fakeResult({ ...base, toolCalls: [{ name: "y" }], diagnosis: { fault: "f" } }))).toEqual(["x"]);
  });

  it("fills link templates, returning one that cannot be formatted as written", () => {
    expect(fillLink("/mcp/%{key}", "orders")).toBe("/mcp/orders");
    expect(fillLink("/tools")).toBe("/tools");
    expect(fillLink("/tools/%{key}")).toBe("/tools/%{key}");
    expect(fillLink("/x/%d", "k")).toBe("/x/%d");
    expect(fillLink(undefined, "k")).toBeNull();
  });
});
