// JobBus adapters (DESIGN.md "infra/"): kafka for services, memory for the embedded default.
export * from "./memoryJobBus.js";
export * from "./kafkaJobBus.js";
export * from "./decodeMessage.js";
export * from "./kafkaBrokerList.js";
export * from "./topicPrefix.js";
export * from "./kafkaLogging.js";
export * from "./kafkaUnreachable.js";
