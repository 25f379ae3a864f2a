// Fix items "for a model" name one of the run's model labels. The report's own
// fixItemsMarkdown({ model }) once answered "Nothing to fix." for any other text, which read as a
// clean bill of health for a typo such as `gpt-5` for `openai/gpt-5` (it now throws a RangeError);
// the API refuses first, in its own shape (NOT_FOUND naming the run's models, VALIDATION for a
// blank filter); an unknown scenario key was already NOT_FOUND.
import { ApiError, shownId } from "../server/errors.js";

/**
 * VALIDATION naming `field` for a blank model filter: fix items read "" as no filter (every
 * item) and results as a label (no result), so neither answer could be relied on.
 */
export function checkModelFilter(model: string | null | undefined, field = "model"): void {
  if (typeof model === "string" && model.trim() === "") {
    throw new ApiError("VALIDATION", "model must not be blank: name one of the run's model labels, or leave model out for every model", field);
  }
}

/** NOT_FOUND naming `field` unless `model` is one of `labels` (the run's model labels). */
export function checkRunModel(model: string, labels: readonly string[], field = "model"): void {
  if (labels.includes(model)) return;
  const known = labels.length > 0 ? labels.join(", ") : "none";
  throw new ApiError("NOT_FOUND", `model ${shownId(model)} is not in this run (its models: ${known})`, field);
}
