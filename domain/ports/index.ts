// The interfaces infra implements (DESIGN.md "ports/").
export * from "./eventStore.js";
export * from "./jobBus.js";
export * from "./agentRuntime.js";
export * from "./tenantIndex.js";
export * from "./evaluationDirectory.js";
