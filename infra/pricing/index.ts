// The operator's price table, read from its file (the domain's PriceTable parses it).
export { loadPriceTable } from "./loadPriceTable.js";
