// `npm run docs:screenshot`: docs/map.png, the /map page after a search, taken in chromium from a
// server this script starts on a free loopback port (and stops).

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../../adapters/http/keys.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import { createNodeServer } from '../../adapters/node.js';
import { createEngine } from '../../engine/index.js';
import { chromiumPath, launchChromium, NO_CHROMIUM } from './chromium.js';

const OUT = fileURLToPath(new URL('../../docs/map.png', import.meta.url));
const SEARCH = { zip: '', city: '', state: 'TX', radius: '25', carriers: 'carrier-a,carrier-b,carrier-e,carrier-g,carrier-h' };

const executable = chromiumPath();
if (!executable) {
  console.error(`error: ${NO_CHROMIUM}`);
  process.exit(1);
}

const key = randomBytes(12).toString('hex');
const server = createNodeServer(createApp({ engine: createEngine(), keys: new KeyRing(parseApiKeys(`${key}:enterprise`)), kv: new MemoryKvStore() }));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const chrome = await launchChromium(executable);
try {
  const page = await chrome.browser.newPage();
  await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
  await page.goto(`${origin}/map`, { waitUntil: 'networkidle0' });
  for (const [id, value] of Object.entries({ key, ...SEARCH })) {
    await page.$eval(`#${id}`, (input) => ((input as HTMLInputElement).value = ''));
    if (value) await page.type(`#${id}`, value);
  }
  await page.click('#search-form button[type=submit]');
  await page.waitForFunction(() => /\d+ locations?/.test(document.getElementById('status')!.textContent ?? ''));
  // The first result highlighted, as hovering it in the list does, once the zoom to the results has ended.
  await page.hover('#results li:first-child button');
  await page.waitForFunction(() => document.querySelector('.leaflet-zoom-anim') === null);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await chrome.close();
  server.closeAllConnections();
  server.close();
}
