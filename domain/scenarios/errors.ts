// Errors of the scenario inputs. Each names where (a line or a document path) and the rule
// broken, and carries the code the API maps to a status (DESIGN.md conventions).

/** Where an input went wrong: a 1-based line of the text, a document path, or both. */
export interface Where {
  /** The file or document the input came from, when there are several. */
  source?: string;
  line?: number;
  path?: string;
}

function describeWhere(where: Where): string {
  return [where.source, where.line ? `line ${where.line}` : undefined, where.path].filter(Boolean).join(", ");
}

/** Base of every malformed-input error raised by ScenarioParser, Suite and Catalog. */
export class ScenarioInputError extends Error {
  readonly code: "validation" | "not_found" = "validation";
  readonly line: number | null;
  readonly path: string | null;
  readonly source: string | null;
  /** The rule broken, without the location prefix. */
  readonly rule: string;

  constructor(rule: string, where: Where = {}) {
    const location = describeWhere(where);
    super(location ? `${location}: ${rule}` : rule);
    this.name = new.target.name;
    this.rule = rule;
    this.line = where.line ?? null;
    this.path = where.path ?? null;
    this.source = where.source ?? null;
  }

  /** The same error, located in a named document (a file path or `documents[1]`). */
  in(source: string): ScenarioInputError {
    const Err = this.constructor as InputErrorClass;
    return new Err(this.rule, { source, line: this.line ?? undefined, path: this.path ?? undefined });
  }
}

/** Runs `read`, naming the document (`source`) in any input error it raises that names none yet. */
export function located<T>(source: string | undefined, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (source && error instanceof ScenarioInputError && !error.source) throw error.in(source);
    throw error;
  }
}

/** ScenarioParser rejects a paste (the reference's `ScenarioParser::ParseError`). */
export class ParseError extends ScenarioInputError {}

/** Suite or Catalog rejects a document (`Catalog::InvalidDocument`). */
export class InvalidDocument extends ScenarioInputError {}

/** A file, product, set or scenario that is not there (`Suite::NotFound`, `Catalog::NotFound`). */
export class NotFound extends Error {
  readonly code = "not_found" as const;

  constructor(message: string) {
    super(message);
    this.name = "NotFound";
  }
}

export type InputErrorClass = new (rule: string, where?: Where) => ScenarioInputError;
