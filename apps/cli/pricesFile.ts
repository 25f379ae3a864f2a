// `verdict run --prices FILE` and `verdict start`'s VERDICT_PRICES: the operator's price table,
// read as the worker reads VERDICT_PRICES (infra/pricing); a bad file is a usage error (exit 2)
// naming the flag or variable, the file, the path and the rule, before anything runs.
import { PriceTableError, type PriceTable } from "@verdict/domain";
import { loadPriceTable } from "@verdict/infra/pricing";
import { CliError } from "./errors.js";

export function loadPricesFlag(path: string, label: string): PriceTable {
  try {
    return loadPriceTable(path);
  } catch (error) {
    throw error instanceof PriceTableError ? new CliError(`${label} ${error.message}`) : error;
  }
}
