// A report of hostile text: every untrusted field carries terminal escapes and bidi overrides.
// Neither the Markdown (which `verdict run` prints to a terminal) nor the page may carry one as
// it is: each shows as its code point. The JSON is data and keeps the text as given.
import { describe, expect, it } from "vitest";
import { Report } from "./report.js";
import { fakeResult, model } from "./testing.js";

const ESCAPES = "\u001bc\u001b]0;title\u0007\u001b]52;c;cHduZWQ=\u0007\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\\u0000\u007f\u009b";
const ANSWER = `You have 3 orders pending \u202e!deliaf :kram ,4821 \u2066 ${ESCAPES}`;
// What either document may not hold raw: C0 but tab and LF, DEL, C1, the bidi controls.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// The page's numeric references to the same characters would act as the characters do.
const REFERENCE = /&#(?:[0-8]|1[1-9]|2\d|3[01]|12[7-9]|1[3-5]\d|82(?:3[4-8])|84(?:5[4-7]));/;

function hostileReport(): Report {
  const label = "gpt\u202eevil\u001b[2J";
  const diagnosis = {
    fault: "ungrounded_answer",
    summary: `The agent stated specifics ("${ANSWER}") without calling any tool.`,
    recommendation: `Nothing came from a tool ("${ANSWER}"): instruct it to answer only from a tool result.`,
  };
  return new Report({
    results: [
      fakeResult({ key: "orders", label, prompt: `Orders?${ESCAPES}\u202e`, answer: ANSWER, score: 0, diagnosis, toolCalls: [{ name: "lookup\u202e", error: true, detail: `HTTP 500 ${ESCAPES}` }] }),
      fakeResult({ key: "orders", label: "plain", answer: "Fine.", score: 1 }),
    ],
    models: [model(label), model("plain")],
    judge: { label: "opus\u2067", verdict: async () => ({ value: null, exchange: null }) },
    verdict: { winner: "plain", rationale: `Plainer \u2067${ESCAPES}`, judge: "opus\u2067" },
  });
}

describe("control and bidi characters in a report", () => {
  it("reach the Markdown only as code points, in the whole report and in each piece", () => {
    const report = hostileReport();
    const markdown = report.toMarkdown();
    for (const text of [markdown, report.verdictMarkdown(), report.fixItemsMarkdown(), report.scenarioMarkdown("orders")]) {
      expect(text).not.toMatch(RAW);
    }
    expect(markdown).toContain("pending ⟨U+202E⟩!deliaf :kram ,4821 ⟨U+2066⟩ ⟨U+001B⟩c⟨U+001B⟩]0;title⟨U+0007⟩");
    expect(markdown).toContain("Plainer ⟨U+2067⟩");
    expect(markdown).toContain("gpt⟨U+202E⟩evil⟨U+001B⟩");
    expect(markdown).toContain("⟨U+0000⟩⟨U+007F⟩⟨U+009B⟩");
  });

  it("reach the page only as code points, never as a character or a reference to one", () => {
    const html = hostileReport().toHtml();
    expect(html).not.toMatch(RAW);
    expect(html).not.toMatch(REFERENCE);
    expect(html).toContain("&#10216;U+202E&#10217;!deliaf");
  });

  it("are kept as given in the JSON", () => {
    const results = hostileReport().toJSON().results as Array<{ answer: string }>;
    expect(results[0].answer).toBe(ANSWER);
  });
});
