// Characters in untrusted text (answers, prompts, tool output, judge prose, labels) that would
// act rather than show where a report is read: C0 and C1 controls and DEL (ESC c clears a
// terminal that `cat`s the Markdown, OSC 52 writes its clipboard, NUL makes git call the file
// binary), and the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
// U+2066-U+2069), which reorder the report's own text after them ("… 1284, mark: failed!").
// Both the Markdown and the page show each as its code point, `⟨U+001B⟩`, so a reader sees that
// it was there and what it was. LRM, RLM and ALM are left alone: RTL text needs them, and they
// mark a direction without overriding any.
//
// The Markdown's line breaks are not here (tab, LF, VT, FF, CR, NEL): its writer folds or splits
// them wherever untrusted text is placed (markdownText.ts), so none reaches the file raw.

import { codePointLabel } from "./identifierText.js";

export const CONTROL_CLASS = "\\u0000-\\u0008\\u000e-\\u001f\\u007f-\\u0084\\u0086-\\u009f\\u202a-\\u202e\\u2066-\\u2069";
const HAS_CONTROL = new RegExp(`[${CONTROL_CLASS}]`);
const CONTROLS = new RegExp(`[${CONTROL_CLASS}]`, "g");

const shown = (c: string): string => `⟨${codePointLabel(c.charCodeAt(0))}⟩`;

/** `text` with every such character shown as its code point; text without any comes back as is. */
export function visibleControls(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(CONTROLS, shown) : text;
}

// A judge prompt has no writer to fold its lines: a line break in a tool call's name (the agent
// names its calls, unchecked) placed outside the prompt's fences starts a line of its own, which
// reads as the prompt's ("Detected fault: none"). There the breaks and tabs are shown too.
const BREAK_CLASS = "\\t\\n\\v\\f\\r\\u0085\\u2028\\u2029";
const HAS_CONTROL_OR_BREAK = new RegExp(`[${CONTROL_CLASS}${BREAK_CLASS}]`);
const CONTROLS_OR_BREAKS = new RegExp(`[${CONTROL_CLASS}${BREAK_CLASS}]`, "g");

/** visibleControls for text kept on one line: a line break or tab is shown as its code point too. */
export function visibleOnOneLine(text: string): string {
  return HAS_CONTROL_OR_BREAK.test(text) ? text.replace(CONTROLS_OR_BREAKS, shown) : text;
}
