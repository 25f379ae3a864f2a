// A document or paste read from one argument (importCatalog's `yaml`, `scenariosText`): the
// library's errors (ParseError, InvalidDocument) carry the line or document path in their
// message but no field, so the API answered them without `extensions.field`. They are answered
// as VALIDATION naming the argument they came in, the message kept as the library wrote it.
import { ScenarioInputError } from "@verdict/domain";
import { ApiError } from "../../server/errors.js";

/**
 * Runs `read`; an input error becomes VALIDATION on `field`, or on what `fieldOf` names for it
 * (a parser option such as keyPrefix is its own argument).
 */
export function fromArgument<T>(field: string, read: () => T, fieldOf?: (error: ScenarioInputError) => string | undefined): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ScenarioInputError) throw new ApiError("VALIDATION", error.message, fieldOf?.(error) ?? field);
    throw error;
  }
}
