// The payload building blocks, re-exported together as `eventSchemas` (see index.ts).
export * from "./shared.js";
export { catalogProductData, catalogSetData, catalogSource, type CatalogProductData } from "./catalogEvents.js";
export { verdictData, judgeExchangeData, judgeExchangeInput, pairProblems, type JudgeExchangeData } from "./runEvents.js";
export { replayData, replayInput, toolCallData, type ReplayData } from "./resultEvents.js";
