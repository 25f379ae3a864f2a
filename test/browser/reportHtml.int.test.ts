// The HTML report in a real browser (Debian's headless Chromium): the page loads nothing but
// itself, renders in both themes, and its Copy as Markdown buttons put the Markdown on the
// clipboard when the browser allows it and select the text when it refuses. Screenshots land in
// .verdict/screenshots/ (ignored) for people to look at.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "@verdict/domain";
import { buildSampleReport, HOSTILE_ANSWER } from "./reportFixture.js";

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
async function open(html: string, options: { colorScheme?: "light" | "dark"; clipboard?: "granted" | "denied" } = {}): Promise<Opened> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? "light", viewport: { width: 1280, height: 900 } });
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
  await page.goto(PAGE_URL, { waitUntil: "load" });
  return { context, page, requests, errors };
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
    await expect.poll(() => page.textContent('button[data-copy="md-fix-0"]')).toBe("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(report.fixItemMarkdown(item));

    // The whole report is on the page once; its pieces' buttons copy their slices of it.
    const whole = page.locator("header button.copy");
    expect(await whole.getAttribute("data-copy")).toBe("md-report");
    await whole.click();
    await expect.poll(() => whole.textContent()).toBe("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(report.toMarkdown());
    const copies = async (selector: string, expected: string): Promise<void> => {
      const button = page.locator(selector);
      expect(await button.getAttribute("data-range")).toMatch(/^\d+ \d+$/);
      await button.click();
      await expect.poll(() => button.textContent()).toBe("Copied");
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

  it("selects the Markdown for copying by hand when the clipboard is refused", async () => {
    const { context, page } = await open(report.toHtml({ theme: "dark" }), { clipboard: "denied" });
    await page.click('button[data-copy="md-verdict"]');
    await expect.poll(() => page.evaluate("window.getSelection().toString()")).toBe(report.verdictMarkdown());
    expect(await page.isVisible('button[data-copy="md-verdict"] + pre.md-shown')).toBe(true);
    expect(await page.textContent('button[data-copy="md-verdict"]')).toMatch(/^Selected/);
    await page.locator('button[data-copy="md-verdict"] + pre.md-shown').screenshot({ path: join(SCREENSHOTS, "report-copy-fallback.png") });

    // The whole report, assembled from its pieces, shown and selected beside its button.
    await page.click("header button.copy");
    await expect.poll(() => page.evaluate("window.getSelection().toString()")).toBe(report.toMarkdown());

    // A scenario's own block, inside its disclosure.
    const key = [...report.resultsByScenario.keys()][4];
    await page.click(`#scenario-${key} > summary`);
    await page.click(`#scenario-${key} button[data-copy]`);
    await expect.poll(() => page.evaluate("window.getSelection().toString()")).toBe(report.scenarioMarkdown(key));
    await context.close();
  });
});
