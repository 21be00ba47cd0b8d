// Debian's Chromium driven by playwright-core (never a downloaded browser), for the
// console's end-to-end tests. Screenshots go to test-results/screenshots/ (gitignored).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = resolve('test-results/screenshots');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export interface PageProblems {
  /** Uncaught exceptions in the page. */
  errors: string[];
  /** console.error messages, CSP violations included. */
  consoleErrors: string[];
}

/** A fresh context and page; records page errors and console errors (CSP violations appear there). */
export async function newPage(
  browser: Browser,
  opts: { colorScheme?: 'light' | 'dark'; origin?: string } = {},
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, colorScheme: opts.colorScheme ?? 'light' });
  if (opts.origin) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: opts.origin });
  const page = await context.newPage();
  const problems: PageProblems = { errors: [], consoleErrors: [] };
  page.on('pageerror', (e) => problems.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.consoleErrors.push(m.text());
  });
  return { context, page, problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
