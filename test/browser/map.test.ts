// The /map page in a real browser (Debian's chromium through puppeteer-core) against real servers on
// loopback ports: what it draws is checked against the API's own answer to the same search, and
// every request the page makes is watched, so none may leave for another origin.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { createRouter } from '../../adapters/express.js';
import { createTestApp, KEYS, loopbackServers } from '../http/fixtures.js';
import { chromiumPath, launchChromium, NO_CHROMIUM, type RunningBrowser } from './chromium.js';

const chromium = chromiumPath();
if (!chromium) console.warn(NO_CHROMIUM);

const servers = loopbackServers();
const core = createTestApp();

/** The API's JSON answer, asked directly of the core the server runs. */
async function apiAnswer(path: string, query: Record<string, string> = {}, key = KEYS.enterprise): Promise<any> {
  const reply = await core.handle({ method: 'GET', path, query, headers: { 'x-api-key': key }, body: undefined });
  return { status: reply.status, ...JSON.parse(reply.body) };
}

interface Watched {
  page: Page;
  /** Every URL the page asked for. */
  requests: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

describe.skipIf(!chromium)('/map in chromium', () => {
  let chrome: RunningBrowser;
  let origin: string;
  let expressOrigin: string;

  beforeAll(async () => {
    origin = await servers.listen(core, 'node');
    expressOrigin = await servers.listen(createTestApp(), 'express');
    chrome = await launchChromium(chromium!);
  });
  afterAll(async () => {
    await chrome?.close();
    await servers.closeAll();
  });

  async function open(url: string, viewport = { width: 1280, height: 900 }): Promise<Watched> {
    const page = await chrome.browser.newPage();
    await page.setViewport(viewport);
    const watched: Watched = { page, requests: [], errors: [] };
    const allowed = new URL(url).origin;
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      watched.requests.push(request.url());
      // Anything for elsewhere is recorded and stopped, so a test run never reaches out either.
      if (request.url().startsWith(`${allowed}/`) || request.url().startsWith('data:')) void request.continue();
      else void request.abort();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') watched.errors.push(message.text());
    });
    page.on('pageerror', (err) => watched.errors.push(String(err)));
    const response = await page.goto(url, { waitUntil: 'networkidle0' });
    expect(response?.status()).toBe(200);
    return watched;
  }

  async function fill(page: Page, fields: Record<string, string>): Promise<void> {
    for (const [id, value] of Object.entries(fields)) {
      await page.$eval(`#${id}`, (input) => ((input as HTMLInputElement).value = ''));
      await page.type(`#${id}`, value);
    }
  }

  /**
   * Submits a form and waits for the page to show the outcome: a status with a count, or an error.
   * The previous outcome is cleared first: an error still shown from the last submit would
   * otherwise pass the wait before this one's answer comes.
   */
  async function submit(page: Page, form: string): Promise<void> {
    await page.$eval('#status', (status) => (status.textContent = ''));
    await page.$eval('#error', (error) => ((error as HTMLElement).hidden = true));
    await page.click(`${form} button[type=submit]`);
    await page.waitForFunction(
      () => /\d+ locations?/.test(document.getElementById('status')!.textContent ?? '') || !document.getElementById('error')!.hidden,
      { timeout: 15_000 },
    );
  }

  const markerCount = (page: Page) => page.$$eval('.result-marker', (markers) => markers.length);
  const listed = (page: Page) => page.$$eval('#results li', (items) => items.map((li) => `${li.getAttribute('data-carrier')}/${li.getAttribute('data-terminal-code')}`));
  const errorText = (page: Page) => page.$eval('#error', (e) => ((e as HTMLElement).hidden ? '' : e.textContent));

  function expectStayedHome(watched: Watched, home: string): void {
    expect(watched.requests.length).toBeGreaterThan(0);
    expect(watched.requests.filter((url) => !url.startsWith(`${home}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(watched.errors).toEqual([]);
  }

  it('draws a typed search: one marker per result, the list in the answer order, nothing from elsewhere, the key in no URL', async () => {
    const watched = await open(`${origin}/map`);
    const { page } = watched;
    await fill(page, { key: KEYS.pro, zip: '75201', radius: '50', carriers: 'carrier-a,carrier-b,carrier-d,carrier-f,carrier-h' });
    await submit(page, '#search-form');
    const answer = await apiAnswer('/api/locations', { zip: '75201', radius: '50', carriers: 'carrier-a,carrier-b,carrier-d,carrier-f,carrier-h' });
    expect(answer.results.length).toBeGreaterThan(3);
    expect(await errorText(page)).toBe('');
    expect(await markerCount(page)).toBe(answer.results.length);
    expect(await listed(page)).toEqual(answer.results.map((r: any) => `${r.carrier}/${r.terminalCode}`));
    // The legend names each carrier of the answer once.
    const legend = await page.$$eval('#legend li', (items) => items.map((li) => li.textContent));
    expect(legend.length).toBe(new Set(answer.results.map((r: any) => r.carrier)).size);
    // The search centre and its radius circle.
    expect(await page.$$eval('.search-centre', (c) => c.length)).toBe(1);

    expect(new URL(page.url()).hash).toBe('#zip=75201&radius=50&carriers=carrier-a%2Ccarrier-b%2Ccarrier-d%2Ccarrier-f%2Ccarrier-h');
    for (const url of [page.url(), ...watched.requests]) expect(url).not.toContain(KEYS.pro);
    expect(await page.evaluate(() => [localStorage.length, Object.values(sessionStorage)])).toEqual([0, [KEYS.pro]]);
    expectStayedHome(watched, origin);
    await page.close();
  });

  it('opens a popup by keyboard from the list, with name, address, phone and distance', async () => {
    const watched = await open(`${origin}/map`);
    const { page } = watched;
    await fill(page, { key: KEYS.pro, zip: '60601' });
    await submit(page, '#search-form');
    const first = (await apiAnswer('/api/locations', { zip: '60601' })).results[0];
    await page.focus('#results li:first-child button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.leaflet-popup-content .popup');
    const popup = await page.$eval('.leaflet-popup-content', (p) => p.textContent);
    for (const part of [first.name, first.address, first.phone, `${first.distanceMiles} mi`]) expect(popup).toContain(part);
    expect(await page.$eval('#results li:first-child', (li) => li.classList.contains('active'))).toBe(true);
    expectStayedHome(watched, origin);
    await page.close();
  });

  it('restores a search from a link once a key is entered', async () => {
    const watched = await open(`${origin}/map#zip=75201&radius=50&carriers=carrier-a`);
    const { page } = watched;
    expect(await page.$eval('#zip', (i) => (i as HTMLInputElement).value)).toBe('75201');
    expect(await page.$eval('#radius', (i) => (i as HTMLInputElement).value)).toBe('50');
    expect(await page.$eval('#carriers', (i) => (i as HTMLInputElement).value)).toBe('carrier-a');
    expect(await page.$eval('#status', (s) => s.textContent)).toMatch(/Enter your API key/);
    expect(await markerCount(page)).toBe(0);
    await fill(page, { key: KEYS.pro });
    await submit(page, '#search-form');
    const answer = await apiAnswer('/api/locations', { zip: '75201', radius: '50', carriers: 'carrier-a' });
    expect(await markerCount(page)).toBe(answer.results.length);
    expect(await listed(page)).toEqual(answer.results.map((r: any) => `${r.carrier}/${r.terminalCode}`));
    expectStayedHome(watched, origin);
    await page.close();
  });

  it("shows the API's message for a 400, a 401 and a 429", async () => {
    const watched = await open(`${origin}/map`);
    const { page } = watched;
    await fill(page, { key: KEYS.pro, zip: '123' });
    await submit(page, '#search-form');
    const invalid = await apiAnswer('/api/locations', { zip: '123' });
    expect(invalid.status).toBe(400);
    expect(await errorText(page)).toBe(invalid.error);
    expect(await markerCount(page)).toBe(0);

    await fill(page, { key: 'not-a-key', zip: '75201' });
    await submit(page, '#search-form');
    expect(await errorText(page)).toBe((await apiAnswer('/api/locations', { zip: '75201' }, 'not-a-key')).error);

    // The spent key's one call goes to the list of carriers; the search is then over quota.
    await fill(page, { key: KEYS.spent });
    await submit(page, '#search-form');
    expect(await errorText(page)).toMatch(/^monthly quota of 1 call exceeded$/);
    // Failed loads are console errors of the browser's own; the page itself logs none.
    expect(watched.errors.filter((e) => !/status of (400|401|429)/.test(e))).toEqual([]);
    await page.close();
  });

  it('offers the places the API suggests for a city it does not know, each a link to its search', async () => {
    const watched = await open(`${origin}/map`);
    const { page } = watched;
    await fill(page, { key: KEYS.pro, zip: '', city: 'sant louis', state: 'MO', radius: '25' });
    await submit(page, '#search-form');
    expect(await page.$eval('#status', (s) => s.textContent)).toMatch(/^0 locations .*\. Did you mean: Saint Louis, MO \(63101\)/);
    await page.click('#status a');
    await page.waitForFunction(() => /Saint Louis, MO \(exact match\)/.test(document.getElementById('status')!.textContent ?? ''), { timeout: 15_000 });
    expect(new URL(page.url()).hash).toBe('#city=Saint+Louis&state=MO&radius=25');
    expectStayedHome(watched, origin);
    await page.close();
  });

  it('names the field the browser refuses, in place of an earlier answer\'s error', async () => {
    const watched = await open(`${origin}/map`);
    const { page } = watched;
    await fill(page, { key: KEYS.pro, zip: '123' });
    await submit(page, '#search-form');
    expect(await errorText(page)).toBe('zip must be 5 digits or ZIP+4 (12345-6789)');
    await fill(page, { zip: '75201', radius: '500' });
    await page.click('#search-form button[type=submit]');
    expect(await errorText(page)).toBe('Radius (miles): Value must be less than or equal to 100.');
    await page.close();
  });

  it("draws a carrier's network: every terminal, and the states it serves", async () => {
    const watched = await open(`${origin}/map`);
    const { page } = watched;
    await fill(page, { key: KEYS.pro });
    await page.focus('#network');
    await page.waitForFunction(() => document.querySelectorAll('#network option').length > 1);
    await page.select('#network', 'carrier-e');
    await submit(page, '#network-form');
    const network = await apiAnswer('/api/networks/carrier-e');
    expect(await markerCount(page)).toBe(network.totalLocations);
    const served = network.states.filter((s: any) => s.country === 'US' && (s.locations > 0 || s.zipsServed > 0)).length;
    expect(served).toBeGreaterThan(1);
    expect(await page.$eval('#status', (s) => s.textContent)).toContain(`${served} US states served`);
    expect(await page.$$eval('path[fill-opacity="0.3"]', (paths) => paths.length)).toBe(served);
    expect(new URL(page.url()).hash).toBe('#carrier=carrier-e');

    // A North American network: its US states, and Canada and Mexico as countries.
    await page.select('#network', 'carrier-h');
    await submit(page, '#network-form');
    const northAmerica = await apiAnswer('/api/networks/carrier-h');
    expect(northAmerica.countries.map((c: any) => c.country)).toEqual(['CA', 'MX', 'US']);
    const usStates = northAmerica.states.filter((s: any) => s.country === 'US' && (s.locations > 0 || s.zipsServed > 0)).length;
    expect(await markerCount(page)).toBe(northAmerica.totalLocations);
    expect(await page.$eval('#status', (s) => s.textContent)).toContain(`${usStates} US states and 2 other countries served`);
    expect(await page.$$eval('path[fill-opacity="0.3"]', (paths) => paths.length)).toBe(usStates + 2);
    expectStayedHome(watched, origin);
    await page.close();
  });

  it('fits a 375 px wide screen, and the page carries a strict policy', async () => {
    const watched = await open(`${origin}/map`, { width: 375, height: 740 });
    const { page } = watched;
    await fill(page, { key: KEYS.pro, zip: '75201' });
    await submit(page, '#search-form');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // Every field has its label; the key has no name, so no form submission could ever carry it.
    const labels = await page.$$eval('input, select', (fields) =>
      fields.map((f) => [f.id, document.querySelector(`label[for="${f.id}"]`)?.firstChild?.textContent?.trim() ?? null, f.getAttribute('name')]),
    );
    expect(labels).toEqual([
      ['key', 'API key', null],
      ['zip', 'ZIP', 'zip'],
      ['radius', 'Radius (miles)', 'radius'],
      ['city', 'City', 'city'],
      ['state', 'State', 'state'],
      ['carriers', 'Carriers', 'carriers'],
      ['network', 'Carrier network', null],
    ]);
    expect(await markerCount(page)).toBeGreaterThan(0);
    const response = await fetch(`${origin}/map`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|\son\w+=/);
    expectStayedHome(watched, origin);
    await page.close();
  });

  it('works where the API is mounted under a prefix in a host Express app', async () => {
    const host = express();
    host.use('/carriers', createRouter(createTestApp()));
    const server: Server = createServer(host);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const home = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const watched = await open(`${home}/carriers/map`);
      const { page } = watched;
      await fill(page, { key: KEYS.pro, zip: '60601' });
      await submit(page, '#search-form');
      expect(await markerCount(page)).toBe((await apiAnswer('/api/locations', { zip: '60601' })).results.length);
      expect(watched.requests.filter((url) => url.startsWith(`${home}/`) && !url.startsWith(`${home}/carriers/`))).toEqual([]);
      expectStayedHome(watched, home);
      await page.close();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is served the same by the Express server', async () => {
    const watched = await open(`${expressOrigin}/map/`);
    const { page } = watched;
    await fill(page, { key: KEYS.pro, zip: '60601' });
    await submit(page, '#search-form');
    expect(await markerCount(page)).toBe((await apiAnswer('/api/locations', { zip: '60601' })).results.length);
    expectStayedHome(watched, expressOrigin);
    await page.close();
  });
});
