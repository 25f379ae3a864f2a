// Catalog speed (issue 3): parse a generated 2,000-scenario catalog and produce its canonical
// YAML and digest, against the floor of `yaml.parse` + `JSON.stringify` of the same text
// measured in the same run. Target: within 3x of that floor.
//   npm run bench -- catalog
import { stringify, parse } from "yaml";
import { Catalog } from "../domain/scenarios/index.js";
import { peakRssMb, printTable, ratio, time } from "./harness.js";

/** Products x sets x scenarios like a real support desk: expectations, tags, params, notes. */
function generatedCatalog(products = 4, sets = 5, scenarios = 100): string {
  const doc = {
    catalog: "support_desk",
    name: "Support Desk",
    description: "Generated for the catalog benchmark",
    owner_team: "customer-experience",
    products: Array.from({ length: products }, (_, p) => ({
      key: `product_${p}`,
      name: `Product ${p}`,
      agent: `Agent${p}`,
      sets: Array.from({ length: sets }, (_, s) => ({
        key: `set_${s}`,
        name: `Set ${s}`,
        judge: { kind: "llm", model: "claude-sonnet-5" },
        criteria: [{ key: "response_present", type: "response_present" }],
        scenarios: Array.from({ length: scenarios }, (_, n) => ({
          key: `p${p}_s${s}_q${n}`,
          prompt: `Customer ${n} asks about order ${1000 + n}: where is it, and can it still be refunded after ${n % 60} days?`,
          expect: {
            tools: ["lookup_order", n % 2 ? "refund_policy" : "track_shipment"],
            contains: [n % 3 ? "refund" : "/order \\d+/i"],
            not_contains: ["I cannot help"],
          },
          notes: n % 4 ? undefined : "Looks the order up before answering.",
          tags: ["orders", `batch-${n % 5}`],
          params: { locale: n % 2 ? "en" : "de", order: 1000 + n },
          production_only: n % 10 === 0 ? true : undefined,
        })),
      })),
    })),
  };
  return stringify(doc, { indentSeq: false });
}

const text = generatedCatalog();
const check = Catalog.parse(text);
if (check.scenarioCount !== 2000) throw new Error(`expected 2,000 scenarios, got ${check.scenarioCount}`);

const floor = await time("yaml.parse + JSON.stringify", () => JSON.stringify(parse(text)), { runs: 9, warmup: 3 });
const ours = await time("Catalog.parse + toYaml + digest", () => Catalog.parse(text).digest, { runs: 9, warmup: 3 });

printTable([
  { step: floor.name, "median ms": floor.medianMs.toFixed(1), ratio: "1.00x" },
  { step: ours.name, "median ms": ours.medianMs.toFixed(1), ratio: ratio(ours, floor) },
]);
console.log(`document: ${(text.length / 1024).toFixed(0)} KiB, ${check.scenarioCount} scenarios, canonical ${(check.toYaml().length / 1024).toFixed(0)} KiB; peak RSS ${peakRssMb()} MB`);
const within = ours.medianMs / floor.medianMs <= 3;
console.log(within ? "within the 3x target" : "OVER the 3x target");
