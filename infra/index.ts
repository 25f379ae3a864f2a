// Public surface of @verdict/infra: the adapters behind the domain ports (DESIGN.md "infra/").
export * from "./eventstore/index.js";
export * from "./jobbus/index.js";
export * from "./agents/index.js";
export * from "./judges/index.js";
export * from "./db/index.js";
