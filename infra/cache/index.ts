// In-memory caches shared by the apps.
export { WeightedLru, type WeightedLruLimits } from "./weightedLru.js";
