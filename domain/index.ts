// The public surface of @verdict/domain: the evaluation core and the event-sourced model.
// Each capability folder states its own public names in its index.ts.
export * from "./scenarios/index.js";
export * from "./models/index.js";
export * from "./replay/index.js";
export * from "./scoring/index.js";
export * from "./diagnosis/index.js";
export * from "./judge/index.js";
export * from "./runner/index.js";
export * from "./report/index.js";
export * from "./stats/index.js";
export * from "./format/index.js";
export * from "./correlation/index.js";
export * from "./cost/index.js";
export * from "./pricing/index.js";
export * from "./events/index.js";
export * from "./commands/index.js";
export * from "./ports/index.js";
export { floatSum, isBlank, likelyMeant, roundHalfAwayFromZero, thrownText, truncateBytes } from "./support/index.js";
