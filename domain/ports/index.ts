// The interfaces infra implements (DESIGN.md "ports/").
export * from "./eventStore.js";
