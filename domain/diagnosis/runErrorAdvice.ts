// What to do about a run that failed before answering, read from the error text (first match wins).
const ADVICE: ReadonlyArray<[RegExp, string]> = [
  [/credentials|api.?key|access_token|unauthori[sz]ed|401/i, "Add credentials for the provider this model runs on before comparing it."],
  [
    /model.*(not found|does not exist|unknown|unsupported)|404/i,
    "The provider rejected the model name. Check the spelling against the provider's catalog, or prefix " +
      "it with the provider (`ollama/qwen3:8b`) so it runs where it exists.",
  ],
  [
    /rate limit|429|overloaded|529/i,
    "The provider throttled the run. Re-run the failed scenarios; if it recurs, run fewer scenarios per " +
      "batch or compare fewer models at once.",
  ],
];

const OTHERWISE = "Inspect the run's error. A failure here is infrastructure — it says nothing about the answer yet.";

export function runErrorAdvice(message: string): string {
  for (const [pattern, advice] of ADVICE) if (pattern.test(message)) return advice;
  return OTHERWISE;
}

export const EMPTY_ANSWER_ADVICE =
  "The provider returned no content. Check the model name is one the provider serves and that the " +
  "output budget leaves room for an answer after the tool calls.";
