// The payload building blocks, re-exported together as `eventSchemas` (see index.ts).
export * from "./shared.js";
export { catalogProductData, catalogSetData, catalogSource, type CatalogProductData } from "./catalogEvents.js";
export { verdictData, judgeExchangeData, pairProblems, type JudgeExchangeData } from "./runEvents.js";
export { replayData, toolCallData, type ReplayData } from "./resultEvents.js";
