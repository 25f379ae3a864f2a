// Shared by the scripted agent and the scripted judge.
export * from "./parseScript.js";
export * from "./textMatcher.js";
export * from "./readScriptFile.js";
