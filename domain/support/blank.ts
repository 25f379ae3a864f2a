// Ruby/ActiveSupport `blank?` and `presence` (reference-core §0): nil, false, whitespace-only
// strings, empty arrays and empty hashes are blank; everything else is present.

const WHITESPACE_ONLY = /^[\s\u0085\u180e]*$/u;
/** Finds a character that is not blank; for hot paths that hold a string already. */
export const NON_BLANK_CHARACTER = /[^\s\u0085\u180e]/u;

export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === "string") return WHITESPACE_ONLY.test(value);
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

/** The value when present, else null (Ruby `presence`). */
export function presence<T>(value: T | null | undefined): T | null {
  return isBlank(value) ? null : (value as T);
}

/** A mapping read from YAML/JSON: an object that is neither an array nor a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
