// The canonical YAML text of a catalog: the layout and quoting Ruby's Psych gives `to_yaml`
// (reference-core §4), so a digest is stable and close to the reference's. `---` first,
// sequences not indented under their key, 80-column folding, and Psych's choice of style
// per string: literal block for multi-line text, double quotes for a leading non-word
// character, single quotes for text that would read back as another type.
import { Document, Scalar, visit } from "yaml";

const NULL_WORDS = /^(?:~|null|Null|NULL)$/;
const BOOL_WORDS = /^(?:yes|no|true|false|on|off|y|n)$/i;
const INTEGER = /^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$/;
const FLOAT = /^(?:[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[-+]?[0-9][0-9_,]*[eE][-+]?[0-9]+)$/;
const SEXAGESIMAL = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}(?:\.[0-9_]*)?$/;
const DATE = /^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$/;
const TIME = /^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$/;
const LEADING_NON_WORD = /^[^\p{L}\p{N}_][^"]*$/su;
const OCTAL_LOOKALIKE = /^0[0-7]*[89]/;

/** Would Psych's ScalarScanner read this text back as something other than a string? */
function readsAsOtherType(text: string): boolean {
  if (text === "") return true;
  return (
    NULL_WORDS.test(text) || BOOL_WORDS.test(text) || INTEGER.test(text) || FLOAT.test(text) ||
    SEXAGESIMAL.test(text) || DATE.test(text) || TIME.test(text) || OCTAL_LOOKALIKE.test(text)
  );
}

type ScalarStyle = "PLAIN" | "QUOTE_SINGLE" | "QUOTE_DOUBLE" | "BLOCK_LITERAL";

/** Psych's `visit_String` decision, in its order. */
function psychStyle(text: string): ScalarStyle {
  if (/\n(?!$)/.test(text)) return "BLOCK_LITERAL";
  if (text === "y" || text === "Y" || text === "n" || text === "N") return "QUOTE_DOUBLE";
  if (LEADING_NON_WORD.test(text)) return "QUOTE_DOUBLE";
  if (readsAsOtherType(text)) return "QUOTE_SINGLE";
  return "PLAIN";
}

/** `---`, then the document in Psych's block layout. */
export function canonicalYaml(value: Record<string, unknown>): string {
  const doc = new Document(value);
  visit(doc, {
    Scalar(_key, node: Scalar) {
      if (typeof node.value === "string") node.type = psychStyle(node.value);
    },
  });
  return `---\n${doc.toString({ indentSeq: false, lineWidth: 80, minContentWidth: 20, singleQuote: true })}`;
}
