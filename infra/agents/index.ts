// AgentRuntime adapters (DESIGN.md "Agent runtimes"): scripted and http.
export * from "./scriptedAgent.js";
export * from "./httpAgent.js";
export { shownSpec } from "./shownSpec.js";
export { agentSpecOf, type AgentSpec } from "./agentSpec.js";
