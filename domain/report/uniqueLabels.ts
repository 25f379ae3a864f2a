// A label names a model everywhere a run is read (summary keys, table rows, the verdict): two
// models with one label would run twice and show one doubled row, so a repeat is refused.

/** Throws, naming the repeated label, when two of `models` share one; `owner` names the caller. */
export function checkUniqueLabels(owner: string, models: readonly { label: string }[]): void {
  const seen = new Set<string>();
  models.forEach((model, i) => {
    if (seen.has(model.label)) throw new RangeError(`${owner}: models[${i}] repeats the label ${JSON.stringify(model.label)}: each model must have its own label`);
    seen.add(model.label);
  });
}
