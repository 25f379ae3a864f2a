// Public surface of domain/pricing: the operator's price table and the platform's cost chain for
// a replay that reports no cost (reference-platform §1 #22). Kept apart from domain/cost, which
// the Report and the Runner import: the table is read by the YAML reader, which the report path
// does not load (about 8 MB of resident memory in the report bench).
export { PriceTable, PriceTableError } from "./priceTable.js";
export type { MatchedRate, ModelRate } from "./priceTable.js";
export { priceRefusalLine, priceReplay } from "./priceReplay.js";
export type { PriceBasis, PriceRefusal } from "./priceReplay.js";
