import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, driven by playwright-core (never a downloaded browser). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Whether the browser tests run: chromium is required in CI; locally they are skipped, loudly, without it. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM && process.env.CI === 'true') throw new Error(`chromium is required in CI but ${CHROMIUM} does not exist (apt-get install -y chromium)`);
if (!HAS_CHROMIUM) console.warn(`\n[feedback-service tests] ${CHROMIUM} not found: the browser tests are SKIPPED.\n`);

/** A headless chromium with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}
