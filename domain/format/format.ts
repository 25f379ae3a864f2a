// How every surface writes a pass count, a score and a cost (guide "Costs", reference-core §12),
// so the Markdown report, the HTML page, a diagnosis and the API read alike. Stored values stay
// 0..1 and USD; only their display is decided here.
import { fixed, toInteger, usableNumber, whole } from "./numbers.js";

/** What a missing figure reads as. @public */
export const EMPTY = "—";
/** Shown once per surface where a `~` (estimated) figure is visible. @public */
export const LEGEND = "~ estimated from tokens × model rates";
/**
 * LEGEND on a report where some estimate was worked out from characters (a replay that gave no
 * token count: `cost_rate.basis` `chars`, reference-platform #22), which is a lower bound. @public
 */
export const CHARS_LEGEND = `${LEGEND}; where a replay gave no token count, from its prompt and answer characters ÷ 4: a lower bound`;
/** Rate sources that guess a model's price from its name rather than a catalog entry. @public */
export const FALLBACK_RATE_SOURCES: readonly string[] = ["pattern", "default"];

/** 0.875 -> `88%`; `—` for a missing or non-numeric value. */
export function percent(fraction: unknown): string {
  const value = usableNumber(fraction);
  if (value === null) return EMPTY;
  return `${whole(value * 100)}%`;
}

/** A 0..1 score (mean score, criterion score, task completion, judge confidence): 0.93 -> `93%`. */
export function score(value: unknown): string {
  return percent(value);
}

/** 0.7 -> `pass ≥ 70%`. @public */
export function threshold(value: unknown): string {
  return `pass ≥ ${percent(value)}`;
}

export interface PassesOptions {
  /** `14/16 (88%)`: in a Markdown table ` · ` would read as a cell separator next to a pipe. */
  markdown?: boolean;
}

/** 14 of 16 -> `14/16 · 88%` (Markdown `14/16 (88%)`); `—` when nothing was scored. @public */
export function passes(passed: unknown, total: unknown, { markdown = false }: PassesOptions = {}): string {
  const count = toInteger(total);
  if (count <= 0) return EMPTY;
  const done = toInteger(passed);
  const pct = `${whole((done * 100) / count)}%`;
  return markdown ? `${done}/${count} (${pct})` : `${done}/${count} · ${pct}`;
}

export interface MoneyOptions {
  /** Any part was estimated from tokens × model rates rather than reported: prefix `~`. */
  estimated?: boolean;
}

/** 0.0243 -> `$0.0243`, 0.000697 -> `$0.000697`, 0 -> `$0.00`, estimated `~$0.0243`; `—` when missing. @public */
export function money(value: unknown, { estimated = false }: MoneyOptions = {}): string {
  const amount = usableNumber(value);
  if (amount === null) return EMPTY;
  const digits = amount === 0 ? 2 : Math.abs(amount) < 0.001 ? 6 : 4;
  return `${estimated ? "~" : ""}$${fixed(amount === 0 ? 0 : amount, digits)}`;
}

/** A $ per million tokens rate, at least two decimals, no trailing noise: 5 -> `$5.00/M`, 0.075 -> `$0.075/M`. @public */
export function perMillion(rate: unknown): string {
  const value = usableNumber(rate) ?? 0;
  // A run holds a handful of rates, each printed in thousands of tooltips: written once each.
  let text = perMillionTexts.get(value);
  if (text === undefined) {
    const [integer, fraction] = fixed(value, 4).split(".");
    text = `$${integer}.${fraction.replace(/0+$/, "").padEnd(2, "0")}/M`;
    if (perMillionTexts.size < 1000) perMillionTexts.set(value, text);
  }
  return text;
}

const perMillionTexts = new Map<number, string>();

export interface CostRate {
  input?: unknown;
  output?: unknown;
  source?: unknown;
  /** `chars` for counts worked out from characters ÷ 4 (a lower bound); the counts below were priced. */
  basis?: unknown;
  /** `true` on an estimate this platform worked out from characters (with `source` "price table"). */
  lower_bound?: unknown;
  input_tokens?: unknown;
  output_tokens?: unknown;
  /** The characters a count was worked out from, when it was. */
  prompt_chars?: unknown;
  answer_chars?: unknown;
}

/**
 * An estimate this platform worked out from characters ÷ 4 (domain/pricing priceReplay), read
 * as a lower bound: `cost_rate` `basis: "chars"`, `lower_bound: true` and `source: "price
 * table"`, as priceReplay writes it. A `cost_rate` that says `basis: "chars"` without the other
 * two was written elsewhere (another install before this reading, or the reference, whose #22
 * cost_rate carries a basis of its own): its report renders as it did before this reading, as a
 * plain estimate from the counts the result gives, so an imported report's pages keep their
 * bytes. @public
 */
export function isCharsBasis(rate: CostRate | null | undefined): boolean {
  return rate?.basis === "chars" && rate.lower_bound === true && rate.source === "price table";
}

export interface CostTitleInput {
  input_tokens?: unknown;
  output_tokens?: unknown;
  /** camelCase spellings are accepted too. */
  inputTokens?: unknown;
  outputTokens?: unknown;
  rate?: CostRate | null;
}

/**
 * The tooltip of an estimated figure, showing the working:
 * `estimated: 2,328 in × $5.00/M + 423 out × $30.00/M · catalog rate`, plus ` (fallback rate)` for a
 * rate guessed from the model's name. Without a usable input and output rate it names the method only.
 * A rate this platform worked out from characters (isCharsBasis) shows the counts it priced (`rate.input_tokens`/`output_tokens`;
 * the replay's own are missing) and says it is a lower bound:
 * `lower bound: 10 in (40 prompt chars ÷ 4) × $2.50/M + 423 out × $10.00/M · price table rate`.
 *
 * @public
 */
export function costTitle({ input_tokens, output_tokens, inputTokens, outputTokens, rate }: CostTitleInput = {}): string {
  if (!rate || usableNumber(rate.input) === null || usableNumber(rate.output) === null) {
    return "estimated from tokens × model rates";
  }
  const source = typeof rate.source === "string" && rate.source.trim() !== "" ? rate.source : "catalog";
  const chars = isCharsBasis(rate);
  const inCount = chars ? `${delimited(rate.input_tokens)} in${charsNote(rate.prompt_chars, "prompt")}` : `${delimited(input_tokens ?? inputTokens)} in`;
  const outCount = chars ? `${delimited(rate.output_tokens)} out${charsNote(rate.answer_chars, "answer")}` : `${delimited(output_tokens ?? outputTokens)} out`;
  const title = `${chars ? "lower bound" : "estimated"}: ${inCount} × ${perMillion(rate.input)} + ${outCount} × ${perMillion(rate.output)} · ${source} rate`;
  return FALLBACK_RATE_SOURCES.includes(source) ? `${title} (fallback rate)` : title;
}

/** ` (40 prompt chars ÷ 4)` when a count was worked out from characters, else nothing. */
function charsNote(chars: unknown, text: string): string {
  return usableNumber(chars) === null ? "" : ` (${delimited(chars)} ${text} chars ÷ 4)`;
}

/** 2328 -> `2,328`. @public */
export function delimited(count: unknown): string {
  const value = toInteger(count);
  const text = String(value);
  if (value > -1000 && value < 1000) return text;
  // Beyond 1e21 String() writes an exponent: the general rule handles that text as before.
  if (!(Math.abs(value) < 1e21)) return text.replace(/(\d)(?=(\d{3})+$)/g, "$1,");
  const sign = value < 0 ? "-" : "";
  const digits = value < 0 ? text.slice(1) : text;
  const head = digits.length % 3 || 3;
  let out = sign + digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}
