// Public surface of models: ModelSpec (parse, parseAll, provider inference, label).
export * from "./modelSpec.js";
