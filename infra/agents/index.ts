// AgentRuntime adapters (DESIGN.md "Agent runtimes"): scripted, module, chat and http.
export * from "./scriptedAgent.js";
export * from "./httpAgent.js";
export { shownSpec } from "./shownSpec.js";
export { AGENT_FORMS, agentSpecOf, loadAgent, type AgentSpec } from "./agentSpec.js";
export { ModuleAgent, ModuleAgentError, providerKeyRedactor, type ReplayFunction } from "./moduleAgent.js";
export { ChatAgent, ChatScriptError, type ChatScript } from "./chatAgent.js";
