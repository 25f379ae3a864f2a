export * from "./scenario.js";
