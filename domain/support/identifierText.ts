// What an identifier's text may hold: a scenario key, a model label, a group / product / set key
// or a tool name is shown as it is in every report and API answer, so a character one cannot see
// (a zero-width space, a soft hyphen), one that moves the text around it (a right-to-left
// override reversed the rest of a report line) or one that breaks a line (a BEL, U+2028) made
// two different identifiers read alike, or a report line read wrong. Such text is refused on the
// way in (new input only: recorded events are read as they were stored).
//
// Emoji are visible and allowed, with the parts that make one picture of a sequence: a variation
// selector right after an emoji (`⚠️`, U+26A0 U+FE0F, as keyboards type it, so a pasted
// `## ⚠️ Edge cases` heading is a group) or in a keycap (`1️⃣`), and a joiner between two emoji
// (`👩‍💻`). Anywhere else they are hidden text and refused (`a\u200Db`, `v1\uFE0F2`); an emoji
// with and without its selector (`❤` and `❤️`) read alike (lookAlike.ts).
//
// Text not in Unicode NFC (`café` written as `e` + U+0301) is refused, naming the composed form,
// rather than normalised: a key is an identity in stored events, so rewriting it silently would
// make a later import of the same text name another scenario than the one it names now.

// Unicode's own sets: C0/C1 controls and DEL (Cc), the bidi controls (marks U+200E/U+200F/U+061C,
// embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069) and every default-ignorable code
// point (zero-width U+200B-U+200D, U+2060-U+2064, U+FEFF, U+00AD, U+180E, variation selectors,
// tag characters...), plus the line and paragraph separators.
const REFUSED = /[\p{Cc}\p{Bidi_Control}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u;
const REFUSED_ALL = /[\p{Cc}\p{Bidi_Control}\p{Default_Ignorable_Code_Point}\u2028\u2029]/gu;

/** The selectors and joiners that belong to an emoji sequence (see above): not refused there. */
const EMOJI_PARTS = /(?<=\p{Extended_Pictographic})[\uFE0E\uFE0F]|(?<=[#*0-9])\uFE0F(?=\u20E3)|(?<=\p{Extended_Pictographic}(?:\uFE0F|\u{1F3FB}|\u{1F3FC}|\u{1F3FD}|\u{1F3FE}|\u{1F3FF})?)\u200D(?=\p{Extended_Pictographic})/gu;

/** The text with each emoji sequence's own selectors and joiners replaced by a plain character: what the rule checks, at the same character positions. */
function withoutEmojiParts(text: string): string {
  return text.replace(EMOJI_PARTS, "x");
}

const C0_NAMES = [
  "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE", "BELL",
  "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION", "FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN",
  "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE", "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK",
  "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE", "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE", "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
];

const NAMES: Record<number, string> = {
  0x7f: "DELETE",
  0x85: "NEXT LINE",
  0xad: "SOFT HYPHEN",
  0x34f: "COMBINING GRAPHEME JOINER",
  0x61c: "ARABIC LETTER MARK",
  0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x2028: "LINE SEPARATOR",
  0x2029: "PARAGRAPH SEPARATOR",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2060: "WORD JOINER",
  0x2061: "FUNCTION APPLICATION",
  0x2062: "INVISIBLE TIMES",
  0x2063: "INVISIBLE SEPARATOR",
  0x2064: "INVISIBLE PLUS",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
};

/** `U+200B`: a code point as Unicode writes it. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `U+200B ZERO WIDTH SPACE`; a character without a name here is named by its kind. */
export function characterName(codePoint: number): string {
  const name = C0_NAMES[codePoint] ?? NAMES[codePoint] ?? kindOf(codePoint);
  return `${codePointLabel(codePoint)} ${name}`;
}

function kindOf(codePoint: number): string {
  if (codePoint >= 0x80 && codePoint <= 0x9f) return "<C1 control>";
  if ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef)) return "<variation selector>";
  if (codePoint >= 0xe0000 && codePoint <= 0xe0fff) return "<tag character>";
  return "<invisible formatting character>";
}

/**
 * The text with every refused character written as `\u{200B}`: an error quoting the text must
 * not itself hide or reverse what it is about.
 */
export function visibleText(text: string): string {
  return JSON.stringify(text.replace(REFUSED_ALL, (char) => `\\u{${(char.codePointAt(0) as number).toString(16).toUpperCase()}}`)).replace(/\\\\u\{/g, "\\u{");
}

/**
 * Why the text cannot be an identifier, or null when it can: the first refused character, by
 * code point and name, and where it is (`character 2`, counting characters from 1); else that it
 * is not in NFC, naming the form to write.
 */
export function identifierTextProblem(text: string): string | null {
  if (REFUSED.test(text)) {
    const checked = withoutEmojiParts(text);
    if (REFUSED.test(checked)) return refusedCharacter(checked);
  }
  const composed = text.normalize("NFC");
  if (composed !== text) return `is not in Unicode NFC (a character is written decomposed): write ${visibleText(composed)} instead`;
  return null;
}

function refusedCharacter(text: string): string {
  const chars = [...text];
  const index = chars.findIndex((char) => REFUSED.test(char));
  const name = characterName((chars[index] as string).codePointAt(0) as number);
  return `must not contain ${name} (at character ${index + 1}): control, bidi and invisible characters are refused in keys, labels and tool names`;
}
