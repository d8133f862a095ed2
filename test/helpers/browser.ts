import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createEngine, type Engine, type EngineOptions } from '../../src/engine/index.js';
import { type AppOptions, createApp, type NodeServer, serveNode } from '../../src/h3/index.js';

/** Debian's chromium, driven by playwright-core (never a downloaded browser). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Whether the browser tests run: chromium is required in CI; locally they are skipped, loudly, without it. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM && process.env.CI === 'true')
  throw new Error(`chromium is required in CI but ${CHROMIUM} does not exist (apt-get install -y chromium)`);
if (!HAS_CHROMIUM) console.warn(`\n[feedback-service tests] ${CHROMIUM} not found: the browser tests are SKIPPED.\n`);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page, as `rule (impact, nodes)`. axe runs in the page: its context
 * needs JavaScript, and `bypassCSP` to get past the pages' policy.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Unless the context already gives every page axe (`withAxe`), it is sent now.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  const result = (await page.evaluate(() =>
    (globalThis as any).axe.run(document, { resultTypes: ['violations'] }),
  )) as { violations: Array<{ id: string; impact: string; nodes: unknown[] }> };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
}

/**
 * Every page of this context gets axe-core as it loads, compiled from the browser's cache after the first: a tour of
 * many pages spares sending 500 KB of script to each.
 */
export async function withAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: AXE });
}

/** A headless chromium with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** What a browser suite drives: a migrated engine on a fresh SQLite file, a server listening for it, a chromium. */
export interface BrowserStand {
  engine: Engine;
  server: NodeServer;
  browser: Browser;
}

/**
 * Set up a browser suite's stand before its tests (the app is what `appOptions` adds to the engine) and take it down
 * after them. Call inside the suite's `describe`; the fields are filled once its `beforeAll` ran.
 */
export function useBrowserStand(
  appOptions: (engine: Engine) => Omit<AppOptions, 'engine'> = () => ({}),
  engineOptions: Omit<EngineOptions, 'database'> = {},
): BrowserStand {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-browser-'));
  const stand = {} as BrowserStand;
  beforeAll(async () => {
    stand.engine = await createEngine({ log: () => {}, ...engineOptions, database: join(dir, 'browser.db') });
    await stand.engine.migrate();
    // As `feedback-service serve` does: the scheduler sends what the pages write to the outbox (sign-in codes, notifications).
    await stand.engine.scheduler.start();
    stand.server = await serveNode(
      createApp({ logError: () => {}, ...appOptions(stand.engine), engine: stand.engine }),
      { port: 0 },
    );
    stand.browser = await launchChromium();
  });
  afterAll(async () => {
    await stand.browser?.close();
    await stand.server?.close();
    await stand.engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return stand;
}
