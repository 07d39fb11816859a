import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/**
 * What the console's browser tests share: Debian's Chromium (headless; skipped
 * with a printed reason when it is not installed), the console built on demand,
 * tabs that record console errors, the render check with its screenshot
 * (tests/e2e/artifacts/console/) and an accessibility audit (axe-core's WCAG
 * 2.1 A and AA rules: labels, names, contrast, landmarks, ARIA), navigation
 * and sign-in.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const REPO = path.resolve(__dirname, "../../..");
export const ARTIFACTS = path.join(REPO, "tests", "e2e", "artifacts", "console");
/** axe-core's browser bundle, evaluated in the page (DevTools evaluation, which the console's CSP does not restrict). */
const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const AXE_RUN = `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
  .then((r) => r.violations.map((v) => v.id + " (" + v.impact + "): " + v.help + " — " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))`;

const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`console browser tests skipped: no Chromium at ${CHROMIUM} (install the chromium package or set CHROMIUM_PATH)`);
export const describeBrowser = haveChromium ? describe : describe.skip;

/** Evaluated in the page (a string: this file is compiled without the DOM's types). */
export const STORED_KEY = "sessionStorage.getItem('engram.console.apiKey')";

export interface ConsoleBrowser {
  /** A fresh tab (own session storage) that records console errors and uncaught exceptions. */
  openTab(): Promise<{ page: Page; errors: string[] }>;
  /** The page rendered: its main landmark has text, the stylesheet applies; then a screenshot named `name`, and no accessibility violation. */
  renders(page: Page, name: string): Promise<void>;
  /** Follows the navigation link `label` and waits for the page's heading. */
  go(page: Page, label: string): Promise<void>;
  /** Opens the console at `url` and signs in with `key`. */
  signIn(page: Page, url: string, key: string): Promise<void>;
}

/** Registers the suite's set-up (console build, browser launch) and tear-down; call inside a describe. */
export function consoleBrowser(): ConsoleBrowser {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  // Built on demand (when missing or older than its sources), so each file also runs alone.
  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(REPO, "scripts", "console-build.mjs")], { stdio: "inherit" });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });

  const go = async (page: Page, label: string) => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: label, exact: true }).click();
    await page.getByRole("heading", { level: 1 }).filter({ hasText: label }).waitFor();
  };

  return {
    async openTab() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`console: ${m.text()}`);
      });
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      return { page, errors };
    },
    async renders(page, name) {
      const text = (await page.locator("main").innerText()).trim();
      expect(text.length).toBeGreaterThan(10);
      expect(await page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")).not.toBe("none");
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(5_000);
      if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(AXE_SOURCE);
      expect({ page: name, violations: await page.evaluate(AXE_RUN) }).toEqual({ page: name, violations: [] });
    },
    go,
    async signIn(page, url, key) {
      await page.goto(`${url}/console`);
      await page.getByLabel("API key", { exact: true }).fill(key);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    },
  };
}
