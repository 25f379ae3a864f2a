// The HTML report in a real browser (Debian's headless Chromium): the page loads nothing but
// itself, renders in both themes, and its Copy as Markdown buttons put the Markdown on the
// clipboard when the browser allows it and select the text when it refuses; axe-core finds no
// WCAG 2 A/AA violation on it. Screenshots land in .verdict/screenshots/ (ignored) for people to
// look at.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelSpec, Runner, Scenario, type Report } from "@verdict/domain";
import { renderReportHtml } from "../../domain/report/html/index.js";
import { buildLongTextReport, buildSampleReport, HOSTILE_ANSWER, LONG_LABEL } from "./reportFixture.js";

const CHROMIUM = process.env.VERDICT_CHROMIUM ?? "/usr/bin/chromium";
const ORIGIN = "https://report.verdict.test";
const PAGE_URL = `${ORIGIN}/report.html`;
const SCREENSHOTS = join(process.cwd(), ".verdict", "screenshots");
const ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

let browser: Browser;
let report: Report;

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Every request the browser tried, the page's own included. */
  requests: string[];
  errors: string[];
}

/**
 * Serves the page at a fixed https URL from memory: every request is routed, the page itself is
 * fulfilled and anything else is recorded and aborted, so nothing reaches the network.
 */
async function open(html: string, options: { colorScheme?: "light" | "dark"; clipboard?: "granted" | "denied"; width?: number; hash?: string } = {}): Promise<Opened> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? "light", viewport: { width: options.width ?? WIDTH, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  context.on("request", (request) => requests.push(request.url()));
  await context.route("**/*", (route) =>
    route.request().url() === PAGE_URL
      ? route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html })
      : route.abort("blockedbyclient"),
  );
  if (options.clipboard === "granted") await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: ORIGIN });
  const page = await context.newPage();
  page.on("console", (message) => { if (message.type() === "error") errors.push(message.text()); });
  page.on("pageerror", (error) => errors.push(error.message));
  if (options.clipboard === "denied") {
    // Chromium grants clipboard writes after a click by default; refuse them for this context.
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = await cdp.send("Target.getTargetInfo");
    for (const name of ["clipboard-write", "clipboard-read"]) {
      await cdp.send("Browser.setPermission", {
        permission: { name }, setting: "denied", origin: ORIGIN, browserContextId: targetInfo.browserContextId,
      });
    }
  }
  await page.goto(PAGE_URL + (options.hash ?? ""), { waitUntil: "load" });
  return { context, page, requests, errors };
}

const WIDTH = 1280;

/** axe-core's source, evaluated in the page over CDP: the page's CSP refuses an injected <script>. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation { id: string; nodes: { target: string[]; failureSummary?: string }[] }

/**
 * The WCAG 2.0/2.1/2.2 level A and AA rules axe finds broken on the page, each as
 * `rule: selector — why`, so a failure names what to fix. No rule is disabled.
 */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] }, resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`)) as AxeViolation[];
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} — ${(n.failureSummary ?? "").split("\n").slice(1).join(" ").trim()}`));
}

/** Each Copy button's accessible name: its aria-label, else its text. */
const copyNames = (page: Page): Promise<string[]> =>
  page.evaluate("[...document.querySelectorAll('button.copy')].map((b) => b.getAttribute('aria-label') || b.textContent)") as Promise<string[]>;

interface AxNode { nodeId: string; role?: { value: string }; name?: { value: string }; childIds?: string[] }

/** The names of the radios inside the named radio group, as Chromium's accessibility tree has them. */
async function radiosOfGroup(page: Page, name: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as { nodes: AxNode[] };
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  const group = nodes.find((node) => node.role?.value === "radiogroup" && node.name?.value === name);
  const children = (group?.childIds ?? []).map((id) => byId.get(id));
  return children.filter((node) => node?.role?.value === "radio").map((node) => node!.name?.value ?? "");
}

const backgroundOf = (page: Page): Promise<string> => page.evaluate("getComputedStyle(document.body).backgroundColor") as Promise<string>;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set VERDICT_CHROMIUM`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  report = await buildSampleReport();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
});

describe("HTML report in headless Chromium", () => {
  it("makes no request but the page itself, and runs nothing from the answers", async () => {
    const { context, page, requests, errors } = await open(report.toHtml({ theme: "light" }));
    // Open every disclosure, so images or frames hidden in an answer would have their chance to load.
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
    await page.waitForTimeout(300);
    expect(requests).toEqual([PAGE_URL]);
    expect(await page.evaluate("window.__pwned === undefined")).toBe(true);
    expect(await page.locator("img, iframe, object, embed").count()).toBe(0);
    expect(await page.locator("details.scenario").count()).toBe(6);
    // The hostile answer is shown as text, intact.
    const answers = (await page.locator("details.scenario pre").allTextContents()).join("\n");
    expect(answers).toContain(HOSTILE_ANSWER);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("colours a matrix group row's cell when all or none of the group passed", async () => {
    const scenarios = ["a", "b"].map((key) => new Scenario({ key, prompt: `Question ${key}`, group: "orders", forbiddenPatterns: ["I cannot"] }));
    const models = ["always", "never", "half"].map((label) => ModelSpec.parse(label, { defaultProvider: "openai" }));
    const answer = (scenario: Scenario, spec: ModelSpec) => (spec.label === "never" || (spec.label === "half" && scenario.key === "b") ? "I cannot." : "Here it is.");
    const grouped = await new Runner({ scenarios, models, replay: (scenario, spec) => ({ answer: answer(scenario, spec) }) }).run();
    const { page, context } = await open(grouped.toHtml({ theme: "light" }));
    const colour = (selector: string) => page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).color`) as Promise<string>;
    const token = (name: string) => page.evaluate(`(() => { const probe = document.createElement("span"); probe.style.color = "var(${name})"; document.body.append(probe); return getComputedStyle(probe).color; })()`) as Promise<string>;
    expect(await colour("tr.group td.all")).toBe(await token("--color-success-text"));
    expect(await colour("tr.group td.none")).toBe(await token("--color-error-text"));
    expect(await colour("tr.group td:nth-child(4)")).toBe(await token("--color-text-primary"));
    await context.close();
  });

  it("renders the light and the dark theme, and follows the system when none is pinned", async () => {
    const light = await open(report.toHtml({ theme: "light" }), { colorScheme: "dark" });
    const dark = await open(report.toHtml({ theme: "dark" }), { colorScheme: "light" });
    expect(await backgroundOf(light.page)).toBe("rgb(249, 250, 251)");
    expect(await backgroundOf(dark.page)).toBe("rgb(15, 15, 15)");
    const primary = (page: Page) => page.evaluate("getComputedStyle(document.querySelector('h1')).color");
    expect(await primary(light.page)).toBe("rgb(17, 24, 39)");
    expect(await primary(dark.page)).toBe("rgb(255, 255, 255)");
    await light.page.screenshot({ path: join(SCREENSHOTS, "report-light.png"), fullPage: true });
    await dark.page.screenshot({ path: join(SCREENSHOTS, "report-dark.png"), fullPage: true });
    for (const opened of [light, dark]) {
      expect(opened.requests).toEqual([PAGE_URL]);
      await opened.context.close();
    }

    const system = report.toHtml();
    const systemDark = await open(system, { colorScheme: "dark" });
    const systemLight = await open(system, { colorScheme: "light" });
    expect(await backgroundOf(systemDark.page)).toBe("rgb(15, 15, 15)");
    expect(await backgroundOf(systemLight.page)).toBe("rgb(249, 250, 251)");
    await systemDark.context.close();
    await systemLight.context.close();
  });

  it("puts the Markdown on the clipboard when the browser allows it", async () => {
    const { context, page, requests } = await open(report.toHtml({ theme: "light" }), { clipboard: "granted" });
    const item = report.fixItems[0];
    await page.click('button[data-copy="md-fix-0"]');
    await expect.poll(() => page.textContent('button[data-copy="md-fix-0"]'), { timeout: 5_000 }).toBe("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(report.fixItemMarkdown(item));

    // The whole report is on the page once; its pieces' buttons copy their slices of it.
    const whole = page.locator("header button.copy");
    expect(await whole.getAttribute("data-copy")).toBe("md-report");
    await whole.click();
    await expect.poll(() => whole.textContent(), { timeout: 5_000 }).toBe("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(report.toMarkdown());
    const copies = async (selector: string, expected: string): Promise<void> => {
      const button = page.locator(selector);
      expect(await button.getAttribute("data-range")).toMatch(/^\d+ \d+$/);
      await button.click();
      await expect.poll(() => button.textContent(), { timeout: 5_000 }).toBe("Copied");
      expect(await page.evaluate("navigator.clipboard.readText()")).toBe(expected);
    };
    await copies('button[data-copy="md-verdict"]', report.verdictMarkdown());
    await copies('button[data-copy="md-fix-items"]', report.fixItemsMarkdown());
    // Every scenario, past the wide characters (emoji, dashes, arrows) before and inside it.
    for (const key of report.resultsByScenario.keys()) {
      await page.click(`#scenario-${key} > summary`);
      await copies(`#scenario-${key} button[data-copy]`, report.scenarioMarkdown(key));
    }
    expect(requests).toEqual([PAGE_URL]);
    await context.close();
  });

  it("copies a Markdown source that starts with a byte order mark as it is", async () => {
    // TextDecoder drops a leading U+FEFF unless told not to: the copy lost it, and every range
    // sliced from such a source would have been one unit off.
    const verdict = "\uFEFF## Verdict";
    const html = renderReportHtml(report.toJSON() as unknown as Parameters<typeof renderReportHtml>[0], { theme: "light", markdown: { verdict } as Parameters<typeof renderReportHtml>[1]["markdown"] });
    const { context, page } = await open(html, { clipboard: "granted" });
    const button = page.locator('button[data-copy="md-verdict"]');
    await button.click();
    await expect.poll(() => button.textContent(), { timeout: 5_000 }).toBe("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(verdict);
    await context.close();
  });

  it("selects the Markdown for copying by hand when the clipboard is refused", async () => {
    const { context, page } = await open(report.toHtml({ theme: "dark" }), { clipboard: "denied" });
    await page.click('button[data-copy="md-verdict"]');
    await expect.poll(() => page.evaluate("window.getSelection().toString()"), { timeout: 5_000 }).toBe(report.verdictMarkdown());
    expect(await page.isVisible('button[data-copy="md-verdict"] + pre.md-shown')).toBe(true);
    expect(await page.textContent('button[data-copy="md-verdict"]')).toMatch(/^Selected/);
    await page.locator('button[data-copy="md-verdict"] + pre.md-shown').screenshot({ path: join(SCREENSHOTS, "report-copy-fallback.png") });

    // The whole report, assembled from its pieces, shown and selected beside its button.
    await page.click("header button.copy");
    await expect.poll(() => page.evaluate("window.getSelection().toString()"), { timeout: 5_000 }).toBe(report.toMarkdown());

    // A scenario's own block, inside its disclosure.
    const key = [...report.resultsByScenario.keys()][4];
    await page.click(`#scenario-${key} > summary`);
    await page.click(`#scenario-${key} button[data-copy]`);
    await expect.poll(() => page.evaluate("window.getSelection().toString()"), { timeout: 5_000 }).toBe(report.scenarioMarkdown(key));
    await context.close();
  });

  it("wraps long unbroken text inside the page, so every Copy button stays on screen", async () => {
    const { context, page } = await open(buildLongTextReport().toHtml({ theme: "light" }));
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(WIDTH);
    const buttons = await page.locator("button.copy").all();
    expect(buttons.length).toBeGreaterThan(4);
    for (const button of buttons) {
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(WIDTH);
    }
    // The model's label wraps in its own column of the plot instead of running over the axis.
    const label = page.locator(".plot-row code", { hasText: LONG_LABEL.slice(0, 40) });
    const axis = label.locator("xpath=following-sibling::div[contains(@class, 'axis')]");
    expect((await label.boundingBox())!.x + (await label.boundingBox())!.width).toBeLessThanOrEqual((await axis.boundingBox())!.x);
    await page.screenshot({ path: join(SCREENSHOTS, "report-long-text.png"), fullPage: true });
    await context.close();
  });

  it("opens a scenario's answers from its matrix link, and from a URL naming it", async () => {
    const isOpen = (page: Page, id: string) => page.evaluate(`document.getElementById(${JSON.stringify(id)}).open`) as Promise<boolean>;
    const { context, page } = await open(report.toHtml({ theme: "light" }));
    const link = page.locator(".matrix a[href^='#scenario-']").nth(1);
    const id = (await link.getAttribute("href"))!.slice(1);
    expect(await isOpen(page, id)).toBe(false);
    await link.click();
    expect(await isOpen(page, id)).toBe(true);
    await context.close();
    const linked = await open(report.toHtml({ theme: "light" }), { hash: `#${encodeURIComponent(id)}` });
    expect(await isOpen(linked.page, id)).toBe(true);
    expect(linked.errors).toEqual([]);
    await linked.context.close();
  });

  it("keeps the interval plot's axis readable on a phone", async () => {
    const { context, page } = await open(report.toHtml({ theme: "light" }), { width: 390 });
    const widths = (await page.evaluate("[...document.querySelectorAll('.plot .axis')].map((axis) => axis.getBoundingClientRect().width)")) as number[];
    expect(widths.length).toBeGreaterThan(0);
    for (const width of widths) expect(width).toBeGreaterThan(200);
    await page.screenshot({ path: join(SCREENSHOTS, "report-light-390.png"), fullPage: false });
    await context.close();
  });

  it("breaks no WCAG 2 A or AA rule axe checks, in either theme, on a desktop and on a phone, with every disclosure open", async () => {
    const found: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      for (const width of [WIDTH, 375]) {
        const { context, page } = await open(report.toHtml({ theme }), { colorScheme: theme, width });
        await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
        // The disclosures skip layout while off-screen (content-visibility: auto) and stand in as
        // 44 px boxes until first drawn, so axe would measure buttons on top of one another that
        // never are on screen (axe's target-size flagged a Copy button at 375 px): scrolled through
        // once, as a reader would, each disclosure keeps its real size.
        await page.evaluate("(async () => { for (let y = 0; y < document.documentElement.scrollHeight; y += 400) { scrollTo(0, y); await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); } scrollTo(0, 0); })()");
        for (const violation of await axeViolations(page)) found.push(`${theme} ${width}px ${violation}`);
        await context.close();
      }
    }
    expect(found).toEqual([]);
  });

  it("lets a keyboard reach and scroll the comparison table on a phone, with a visible outline", async () => {
    const { context, page } = await open(report.toHtml({ theme: "light" }), { width: 375 });
    const inRegion = (): Promise<boolean> => page.evaluate("document.activeElement.matches('#comparison > .scroll')") as Promise<boolean>;
    for (let i = 0; i < 40 && !(await inRegion()); i++) await page.keyboard.press("Tab");
    expect(await inRegion()).toBe(true);
    expect(await page.evaluate("getComputedStyle(document.activeElement).outlineStyle")).toBe("solid");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.evaluate("document.activeElement.scrollLeft"), { timeout: 5_000 }).toBeGreaterThan(0);
    await context.close();
  });

  it("says in words which model each pass or fail mark in a scenario's summary stands for", async () => {
    const { context, page } = await open(report.toHtml({ theme: "light" }));
    const summary = page.locator("details.scenario > summary [role='img']").first();
    const marks = (await summary.textContent())!.trim().split(/\s+/);
    const spoken = (await summary.getAttribute("aria-label"))!.split(", ");
    expect(spoken).toHaveLength(marks.length);
    for (const [i, mark] of marks.entries()) expect(spoken[i]).toMatch(mark === "[+]" ? / passed$/ : / (failed|errored)$/);
    await context.close();
  });

  it("shows whether each answers disclosure is open or closed", async () => {
    const { context, page } = await open(report.toHtml({ theme: "light" }));
    const marker = (): Promise<string> => page.evaluate("getComputedStyle(document.querySelector('details.scenario > summary'), '::before').content") as Promise<string>;
    expect(await marker()).toContain("\u25B8");
    await page.click("details.scenario > summary");
    expect(await marker()).toContain("\u25BE");
    await context.close();
  });

  it("outlines the model filter chip that has keyboard focus, in one named radio group", async () => {
    const { context, page } = await open(report.toHtml({ theme: "light" }));
    const focused = (): Promise<string> => page.evaluate("document.activeElement.id") as Promise<string>;
    for (let i = 0; i < 60 && (await focused()) !== "fix-all"; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("fix-all");
    const outline = (id: string): Promise<string> => page.evaluate(`getComputedStyle(document.querySelector('label[for="${id}"]')).outlineStyle`) as Promise<string>;
    expect(await outline("fix-all")).toBe("solid");
    await page.keyboard.press("ArrowRight");
    expect(await focused()).toBe("fix-model-0");
    expect(await outline("fix-model-0")).toBe("solid");
    expect(await outline("fix-all")).toBe("none");
    await page.locator(".fix-filter").screenshot({ path: join(SCREENSHOTS, "report-filter-focus.png") });
    // Chromium's own accessibility tree (what a screen reader reads): the group takes in the radios by aria-owns.
    expect(await radiosOfGroup(page, "Filter by model")).toEqual(["all models 7", "gpt-5-mini 2", "claude-sonnet-5 0", "ollama/qwen3:8b 6"]);
    await context.close();
  });

  it("names every Copy button apart, announces the outcome and puts the label back, emptying the live region", async () => {
    const { context, page } = await open(report.toHtml({ theme: "light" }), { clipboard: "denied" });
    const names = await copyNames(page);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("Copy as Markdown: verdict");
    const button = page.locator('button[data-copy="md-verdict"]');
    await button.click();
    const status = page.getByRole("status");
    await expect.poll(() => status.textContent(), { timeout: 5_000 }).toBe("Selected: press Ctrl+C / \u2318C");
    expect(await button.textContent()).toMatch(/^Selected/);
    await expect.poll(() => button.textContent(), { timeout: 5_000 }).toBe("Copy as Markdown");
    // The live region is emptied with it, so a reader who browses there later finds no stale outcome.
    expect(await status.textContent()).toBe("");
    expect(await button.getAttribute("aria-label")).toBe("Copy as Markdown: verdict");
    // The text shown for copying by hand is still selected after the label came back.
    expect(await page.evaluate("window.getSelection().toString()")).toBe(report.verdictMarkdown());
    await context.close();
  });
});
