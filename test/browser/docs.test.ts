// The /docs page (Swagger UI) in a real browser, on each server: it draws every operation of the
// OpenAPI document the server serves, asks only its own server, loads its 1.7 MB script gzipped,
// and the console stays free of errors (its Content-Security-Policy refuses nothing it needs).

import type { HTTPResponse } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loopbackServers } from '../http/fixtures.js';
import { chromiumPath, launchChromium, NO_CHROMIUM, type RunningBrowser } from './chromium.js';

const chromium = chromiumPath();
if (!chromium) console.warn(NO_CHROMIUM);

const servers = loopbackServers();

/** The operations of an OpenAPI document, as `GET /api/locations`. */
function operations(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => methods.has(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe.skipIf(!chromium)('/docs in chromium', () => {
  let chrome: RunningBrowser;
  const origins: Record<string, string> = {};

  beforeAll(async () => {
    origins.node = await servers.listen(createTestApp(), 'node');
    origins.express = await servers.listen(createTestApp(), 'express');
    chrome = await launchChromium(chromium!);
  });
  afterAll(async () => {
    await chrome?.close();
    await servers.closeAll();
  });

  it.each([
    ['node', '/docs'],
    ['node', '/docs/'],
    ['express', '/docs'],
  ])('on %s, %s draws every operation of the served document, from its own server alone', async (kind, path) => {
    const origin = origins[kind]!;
    const expected = operations(await (await fetch(`${origin}/openapi.json`)).json());
    const page = await chrome.browser.newPage();
    const requests: string[] = [];
    const responses: HTTPResponse[] = [];
    const errors: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      requests.push(request.url());
      // Anything for elsewhere is recorded and stopped, so a test run never reaches out either.
      if (request.url().startsWith(`${origin}/`) || request.url().startsWith('data:')) void request.continue();
      else void request.abort();
    });
    page.on('response', (response) => responses.push(response));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (err) => errors.push(String(err)));

    const response = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle0' });
    expect(response?.status()).toBe(200);
    // Swagger UI draws the operations after it has fetched and parsed the document: wait for as many
    // as the document has, or a minute; the comparison below says which are missing or wrong.
    await page
      .waitForFunction((count) => document.querySelectorAll('.opblock-summary').length >= count, { timeout: 60_000 }, expected.length)
      .catch(() => undefined);
    const drawn = await page.$$eval('.opblock-summary', (summaries) =>
      summaries.map((s) => `${s.querySelector('.opblock-summary-method')?.textContent} ${s.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    expect(drawn.sort()).toEqual([...expected].sort());

    expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
    // The page names its icon, so the browser does not ask the API for /favicon.ico (a 404).
    expect(requests.filter((url) => new URL(url).pathname === '/favicon.ico')).toEqual([]);
    const script = responses.find((r) => r.url().endsWith('/swagger-ui-bundle.js'));
    expect([script?.status(), script?.headers()['content-encoding']]).toEqual([200, 'gzip']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
