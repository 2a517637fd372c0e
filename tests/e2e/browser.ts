import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';

export const OUTPUT_DIR = join(process.cwd(), 'tests', 'output');

/** Debian's Chromium, headless, with no background traffic (this machine reaches only localhost). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  await page.screenshot({ path: join(OUTPUT_DIR, `${name}.png`) });
}

/** Collects page errors so a test can assert the widget threw nothing. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`);
  });
  return errors;
}

/** Records the page's Content-Security-Policy violations (directive and blocked URI) from its first script on. */
export async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportViolation(t: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  return violations;
}

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

export type Finding = { id: string; impact: string; nodes: number; where: string };

/** axe-core's violations inside the widget (shadow roots included). */
export async function audit(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    const { violations } = await axe.run({ include: [['chat-widget']] }, { resultTypes: ['violations'] });
    return violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, where: (v.nodes as Array<{ target: string[]; failureSummary?: string }>).map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('; ') }));
  });
}

/** The findings of serious or critical impact, as lines. */
export const seriousFindings = (found: Finding[]) => found.filter((f) => f.impact === 'serious' || f.impact === 'critical').map((f) => `${f.id}: ${f.where}`);

/** Polls for up to 10 s: the machine may be busy, and each wait ends as soon as it holds. */
export const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });

export type Visitor = { context: BrowserContext; page: Page; errors: string[] };

/** A fresh visitor (its own context, so its own storage) on `url`, with its page errors collected. */
export async function visit(browser: Browser, url: string, options: BrowserContextOptions = {}): Promise<Visitor> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, ...options });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url);
  return { context, page, errors };
}

/** The backend as `npm start` runs it (demo pages, demo token endpoint, seeded), on a free port, in memory. */
export function startDemoServer(apiKey: string, apiSecret: string): Promise<RunningServer> {
  return startServer({ port: 0, apiKey, apiSecret, devMode: true, staticRoot: process.cwd(), seed: true, quiet: true });
}

/** A fresh visitor on the demo shop as `user`, with the bubble opened and the messages shown. */
export async function openChat(browser: Browser, serverUrl: string, user: string): Promise<Visitor> {
  const visitor = await visit(browser, `${serverUrl}/?user=${user}`, { viewport: { width: 1200, height: 860 } });
  await visitor.page.locator('chat-widget [part~="launcher"]').click();
  await visitor.page.locator('chat-widget [part~="message-list"]').waitFor();
  return visitor;
}

export type OwnedDemo = { browser: Browser; server: RunningServer; owner: StreamChat };

/**
 * The suite's Chromium and demo backend, with the site owner's server client (the real SDK with
 * the app secret), through which the other people in a test write while a visitor is cut off.
 */
export function ownedDemo(apiKey: string, apiSecret: string): OwnedDemo {
  const demo = {} as OwnedDemo;
  beforeAll(async () => {
    [demo.browser, demo.server] = await Promise.all([launchChromium(), startDemoServer(apiKey, apiSecret)]);
    demo.owner = new StreamChat(apiKey, apiSecret, { baseURL: demo.server.url });
  });
  afterAll(async () => {
    await demo.browser?.close();
    await demo.server?.close();
  });
  return demo;
}
