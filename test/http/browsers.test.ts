// What browsers are told: CORS for the origins in CORS_ORIGINS (preflights without key or quota),
// nosniff on every answer, and a strict Content-Security-Policy on HTML pages. Checked over real
// servers (node:http and Express), a Lambda event, and in a real browser (Debian's chromium).

import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createLambdaHandler } from '../../adapters/lambda.js';
import { exchangeRaw } from '../support/raw-http.js';
import { createTestApp, KEYS, loopbackServers, SERVER_KINDS } from './fixtures.js';
import { replyOf, restApiEvent } from './senders.js';

const APP_ORIGIN = 'https://app.example.com';
const servers = loopbackServers();
afterAll(() => servers.closeAll());

const preflight = (url: string, origin: string, method = 'GET') =>
  fetch(url, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'x-api-key' } });
const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

describe.each(SERVER_KINDS)('CORS on %s', (kind) => {
  it('answers a preflight from a listed origin with 204 and what the page may send, without key or quota', async () => {
    // The spent key has a quota of one call: preflights that cost one would leave it nothing.
    const url = await servers.listen(createTestApp({ corsOrigins: [APP_ORIGIN] }), kind);
    for (let i = 0; i < 3; i++) {
      const answer = await preflight(`${url}/api/locations?zip=60601`, APP_ORIGIN);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      const allowed = answer.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'content-type']));
      expect(answer.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(Number(answer.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      // Once: a shared cache keeps answers to different origins apart by it.
      expect(answer.headers.get('vary')).toBe('Origin');
      expect(await answer.text()).toBe('');
    }
    const first = await fetch(`${url}/api/locations?zip=60601`, { headers: { Origin: APP_ORIGIN, 'X-API-Key': KEYS.spent } });
    expect(first.status).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    const exposed = first.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']));
    const refused = await fetch(`${url}/api/locations?zip=60601`, { headers: { Origin: APP_ORIGIN, 'X-API-Key': KEYS.spent } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  it('gives an unlisted origin no CORS headers, on preflights and answers alike', async () => {
    const url = await servers.listen(createTestApp({ corsOrigins: [APP_ORIGIN] }), kind);
    const answer = await preflight(`${url}/api/locations`, 'https://evil.example');
    expect(answer.status).toBe(204);
    expect(corsHeaders(answer.headers)).toEqual([]);
    expect(answer.headers.get('vary')).toBe('Origin');
    const get = await fetch(`${url}/api/locations?zip=60601`, { headers: { Origin: 'https://evil.example', 'X-API-Key': KEYS.pro } });
    expect(get.status).toBe(200);
    expect(corsHeaders(get.headers)).toEqual([]);
  });

  it('with no CORS_ORIGINS (the default), no origin gets CORS headers', async () => {
    const url = await servers.listen(createTestApp(), kind);
    expect(corsHeaders((await preflight(`${url}/api/locations`, APP_ORIGIN)).headers)).toEqual([]);
    const get = await fetch(`${url}/api/locations?zip=60601`, { headers: { Origin: APP_ORIGIN, 'X-API-Key': KEYS.pro } });
    expect(corsHeaders(get.headers)).toEqual([]);
  });

  it('with CORS_ORIGINS=*, any origin may call', async () => {
    const url = await servers.listen(createTestApp({ corsOrigins: '*' }), kind);
    expect((await preflight(`${url}/api/search`, 'http://localhost:5173', 'POST')).headers.get('access-control-allow-origin')).toBe('*');
    const get = await fetch(`${url}/api/locations?zip=60601`, { headers: { Origin: 'http://localhost:5173', 'X-API-Key': KEYS.pro } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe.each(SERVER_KINDS)('security headers on %s', (kind) => {
  it('every answer says nosniff: answers, refusals, public documents and the server\'s own rejections', async () => {
    const url = await servers.listen(createTestApp(), kind);
    const answers = await Promise.all([
      fetch(`${url}/api/locations?zip=60601`, { headers: { 'X-API-Key': KEYS.pro } }),
      fetch(`${url}/api/locations?zip=60601`),
      fetch(`${url}/api/locations?zip=6060`, { headers: { 'X-API-Key': KEYS.pro } }),
      fetch(`${url}/nope`),
      fetch(`${url}/openapi.json`),
      fetch(`${url}/api/health`),
      fetch(`${url}/docs`),
      fetch(`${url}/docs/swagger-ui.css`),
      preflight(`${url}/api/locations`, APP_ORIGIN),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 400, 404, 200, 200, 200, 200, 204]);
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    const raw = [
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GET /api/health HTTP/1.1\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost x\r\n\r\n',
    ];
    const replies = await Promise.all(raw.map((text) => exchangeRaw(url, text)));
    expect(replies.map((r) => r.status)).toEqual([431, 400, 417, 400]);
    for (const reply of replies) expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('HTML pages carry a strict Content-Security-Policy, no framing and no referrer; JSON does not need them', async () => {
    const url = await servers.listen(createTestApp(), kind);
    for (const path of ['/docs', '/docs/']) {
      const page = await fetch(`${url}${path}`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = Object.fromEntries(page.headers.get('content-security-policy')!.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
      expect(csp['frame-ancestors']).toBe("'none'");
      expect(csp['default-src']).toBe("'none'");
      expect(csp['script-src']).toBe("'self'");
      expect(csp['base-uri']).toBe("'none'");
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});

describe('CORS on Lambda', () => {
  it('answers a preflight event without key, and decorates answers to a listed origin', async () => {
    const lambda = createLambdaHandler({ core: createTestApp({ corsOrigins: [APP_ORIGIN] }) });
    const pre = replyOf(
      await lambda(restApiEvent({ method: 'OPTIONS', path: '/api/locations', headers: { Origin: APP_ORIGIN, 'Access-Control-Request-Method': 'GET' } })),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(pre.headers.vary).toBe('Origin');
    const unlisted = replyOf(
      await lambda(restApiEvent({ method: 'OPTIONS', path: '/api/locations', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' } })),
    );
    expect([unlisted.status, unlisted.headers['access-control-allow-origin'], unlisted.headers.vary]).toEqual([204, undefined, 'Origin']);
    const get = replyOf(
      await lambda(restApiEvent({ method: 'GET', path: '/api/locations', query: { zip: '60601' }, headers: { Origin: APP_ORIGIN, 'X-API-Key': KEYS.pro } })),
    );
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(get.headers['x-content-type-options']).toBe('nosniff');
  });
});

/** Runs headless chromium on `url` and returns the DOM after scripts ran, and what it logged. */
function chromiumDom(url: string): Promise<{ dom: string; log: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'chromium',
      ['--headless', '--no-sandbox', '--disable-gpu', '--enable-logging=stderr', '--v=0', '--virtual-time-budget=15000', '--dump-dom', url],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => (err && !stdout ? reject(err) : resolve({ dom: stdout, log: stderr })),
    );
  });
}

describe('in a real browser (chromium)', () => {
  let page: Server | undefined;
  afterAll(() => new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined))));

  it('renders /docs under its Content-Security-Policy, with no violation reported', async () => {
    const url = await servers.listen(createTestApp(), 'node');
    const { dom, log } = await chromiumDom(`${url}/docs`);
    // Swagger UI drew the operations of the OpenAPI document.
    expect(dom).toContain('opblock');
    expect(dom).toContain('/api/locations');
    expect(log).not.toMatch(/Content Security Policy/i);
  });

  it('lets a page on a listed origin read an answer and its rate-limit headers; a page on another origin cannot', async () => {
    // The page's own origin is a second loopback server; the API lists one of the two.
    page = createServer((req, res) => {
      const api = new URL(req.url!, 'http://x').searchParams.get('api')!;
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!DOCTYPE html><p id="out">pending</p><script>
fetch(${JSON.stringify(`${api}/api/locations?zip=60601`)}, { headers: { 'X-API-Key': ${JSON.stringify(KEYS.pro)} } })
  .then(function (r) { return r.json().then(function (b) { document.getElementById('out').textContent = 'ok ' + r.status + ' ' + r.headers.get('X-RateLimit-Remaining') + ' ' + b.total; }); })
  .catch(function (e) { document.getElementById('out').textContent = 'blocked ' + e.name; });
</script>`);
    });
    await new Promise<void>((resolve) => page!.listen(0, '127.0.0.1', resolve));
    const pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    const listed = await servers.listen(createTestApp({ corsOrigins: [pageOrigin] }), 'express');
    const unlisted = await servers.listen(createTestApp({ corsOrigins: ['https://app.example.com'] }), 'node');
    const expected = await (await fetch(`${listed}/api/locations?zip=60601`, { headers: { 'X-API-Key': KEYS.pro } })).json();
    const allowed = await chromiumDom(`${pageOrigin}/?api=${encodeURIComponent(listed)}`);
    // The second call of this key: its remaining quota is the plan's less two.
    expect(allowed.dom).toContain(`ok 200 ${100_000 - 2} ${expected.total}`);
    const refused = await chromiumDom(`${pageOrigin}/?api=${encodeURIComponent(unlisted)}`);
    expect(refused.dom).toContain('blocked TypeError');
  });
});
