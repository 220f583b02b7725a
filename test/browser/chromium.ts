// Debian's chromium driven by puppeteer-core: headless, on a fresh profile, with every background
// service that would call home turned off, so what the page asks for is all that is asked for.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/** CHROMIUM_PATH, else Debian's package (`apt-get install chromium`); null when neither is there. */
export function chromiumPath(): string | null {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}

export const NO_CHROMIUM = 'no Chromium at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH): the browser tests of /map and /docs are skipped';

export interface RunningBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchChromium(executablePath: string): Promise<RunningBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'carrier-locations-chromium-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
      '--disable-dev-shm-usage',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
