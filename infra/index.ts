// Public surface of @verdict/infra: adapters behind the domain ports.
export * from "./eventstore/index.js";
