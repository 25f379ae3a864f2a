// A local run's report is meant to be imported (`verdict evals import`, importReport), and the
// platform stores a scenario's prompt in at most SCENARIO_PROMPT_MAX characters: a longer one made
// a report the platform refused only after every pair had been replayed and judged. Refused up
// front instead, as importCatalog refuses the catalog.
import { SCENARIO_PROMPT_MAX, type Scenario } from "@verdict/domain";
import { CliError } from "./errors.js";

/** The set's scenarios' prompts fit the platform's limit; CliError (exit 2) naming the file, the scenario and `prompt` otherwise. */
export function checkStorablePrompts(scenarios: readonly Scenario[], catalogPath: string, setName: string): void {
  for (const scenario of scenarios) {
    const length = scenario.prompt.length;
    if (length <= SCENARIO_PROMPT_MAX) continue;
    throw new CliError(
      `${catalogPath}, set ${setName}, scenario ${JSON.stringify(scenario.key)}: prompt has ${length} characters, over the ${SCENARIO_PROMPT_MAX} the platform stores ` +
        "(its report could not be imported, nor the catalog): shorten it",
    );
  }
}
