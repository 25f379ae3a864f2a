// Turns a zod failure into one DomainError naming the field path and the rule, so a refused
// event or command says exactly what to fix ("data.number: must be >= 1").
import type { z } from "zod";
import { DomainError } from "./domainError.js";

function issuePath(issue: z.core.$ZodIssue, prefix?: string): string {
  const parts = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p)));
  const joined = parts.reduce((acc, part) => (part.startsWith("[") || acc === "" ? acc + part : `${acc}.${part}`), "");
  if (!prefix) return joined;
  return joined === "" ? prefix : joined.startsWith("[") ? prefix + joined : `${prefix}.${joined}`;
}

export function zodToDomainError(error: z.ZodError, context: string, prefix?: string): DomainError {
  const first = error.issues[0];
  const field = first ? issuePath(first, prefix) : prefix ?? "";
  const rules = error.issues.map((issue) => `${issuePath(issue, prefix) || "(root)"}: ${issue.message}`);
  return DomainError.validation(`${context}: ${rules.join("; ")}`, field);
}

/** Parses with `schema` or throws a validation DomainError naming the failing fields. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, context: string, prefix?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw zodToDomainError(result.error, context, prefix);
  return result.data;
}
