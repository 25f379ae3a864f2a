// A fix item under "What to fix" in Markdown, as pasted into a pull request: the judge's
// instruction change stays one block quote and a note stays one list line, whatever they hold.
import { describe, expect, it } from "vitest";
import { checkGfm } from "./gfmCheck.js";
import { Report } from "./report.js";
import { fakeResult, model } from "./testing.js";

describe("a fix item's Markdown", () => {
  it("quotes a multi-line instruction change line by line, its markup as text", () => {
    const change = "Always look the order up.\n</details>\n# x\n<img src=x>";
    const diagnosis = { fault: "low_quality", summary: "s", recommendation: "r", judge: { instruction_change: change } };
    const report = new Report({ results: [fakeResult({ key: "a", label: "m1", diagnosis })], models: [model("m1")] });
    const item = report.fixItems.find((candidate) => candidate.kind === "instruction");
    if (!item) throw new Error("no instruction item");
    const markdown = report.fixItemMarkdown(item);
    const quoted = markdown.split("\n\n")[2].split("\n");
    expect(quoted).toEqual(["> “Always look the order up.", "> &lt;/details&gt;", "> # x", "> &lt;img src=x&gt;”"]);
    expect(markdown).not.toContain("<");
    expect(checkGfm(markdown)).toEqual([]);
  });

  it("writes a note holding a tag and a line break as one line of text", () => {
    const etnc = (summary: string, unavailable: string[]) => ({
      fault: "expected_tool_not_called", summary, recommendation: "Call lookup.", evidence: { unavailable },
    });
    const report = new Report({
      results: [
        fakeResult({ key: "a", label: "m1", expectedTools: ["refund_order"], diagnosis: etnc("Expected refund_order.", ["refund_order"]) }),
        fakeResult({ key: "b", label: "m1", expectedTools: ["lookup"], diagnosis: etnc("Saw <img src=x>\n# x", []) }),
      ],
      models: [model("m1")],
    });
    const [item] = report.fixItems;
    expect(item.note).toContain("<img src=x>");
    const markdown = report.fixItemMarkdown(item);
    const noteLines = markdown.split("\n").filter((line) => line.startsWith("- Note: "));
    expect(noteLines).toEqual(["- Note: b is the exception: Saw &lt;img src=x&gt; # x Call lookup."]);
    expect(markdown).not.toContain("<");
    expect(markdown.split("\n")).not.toContain("# x Call lookup.");
  });
});
