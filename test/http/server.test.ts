// `npm start`'s server: configuration, the generated development key, and graceful shutdown with a
// request still in flight, in-process and as a real process receiving SIGTERM.

import { describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../adapters/server.js';
import { openRaw, parseReply, partialRequest } from '../support/raw-http.js';
import { DEV_KEY, LISTENING, sigtermWithRequestInFlight, spawnServer } from '../support/server-process.js';
import { API_KEYS, KEYS } from './fixtures.js';

describe.each(['express', 'node'] as const)('startServer with SERVER=%s', (server) => {
  it('serves the API and finishes a request in flight when closed, refusing new connections', async () => {
    const running = await startServer({ PORT: '0', SERVER: server, API_KEYS, LOG_LEVEL: 'silent' }, { host: '127.0.0.1' });
    const seen = new Promise((resolve) => running.server.once('request', resolve));
    const inFlight = partialRequest(running.url, KEYS.pro);
    await seen;

    let closed = false;
    const closing = running.close().then(() => (closed = true));
    await expect(fetch(`${running.url}/api/health`)).rejects.toThrow();
    expect(closed).toBe(false);

    inFlight.finish();
    const reply = await inFlight.response;
    expect(reply.status).toBe(200);
    // Answered, and its connection closed after the answer: the server is stopping.
    expect(reply.headers.connection).toBe('close');
    expect(JSON.parse(reply.body).count).toBe(2);
    await closing;
    expect(closed).toBe(true);
  });

  it('answers a request sent on an idle keep-alive connection as the stop begins, then closes it, rather than resetting it', async () => {
    const running = await startServer({ PORT: '0', SERVER: server, API_KEYS, LOG_LEVEL: 'silent' }, { host: '127.0.0.1' });
    const ask = `GET /api/locations/geocode?zip=60601 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEYS.pro}\r\n\r\n`;
    const connection = await openRaw(running.url, ask);
    await vi.waitFor(() => expect(connection.received()).toMatch(/^HTTP\/1\.1 200 [^]*"found":true/), { timeout: 5_000 });
    const first = connection.received().length;
    // The connection is idle; its client sends the next request in the same moment the stop begins.
    const closing = running.close();
    connection.write(ask);
    await connection.closed;
    const second = parseReply(connection.received().slice(first));
    expect(second.status).toBe(200);
    expect(second.headers.connection).toBe('close');
    expect(JSON.parse(second.body).found).toBe(true);
    await closing;
  });

  it('makes a development key when API_KEYS is unset outside production', async () => {
    const running: RunningServer = await startServer({ PORT: '0', SERVER: server, LOG_LEVEL: 'silent' }, { host: '127.0.0.1' });
    try {
      expect(running.devKey).toMatch(/^dev_/);
      const ok = await fetch(`${running.url}/api/locations/geocode?zip=60601`, { headers: { 'x-api-key': running.devKey! } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-limit')).toBe('2000000');
    } finally {
      await running.close();
    }
  });
});

describe('startServer configuration', () => {
  it('refuses to start in production without keys', async () => {
    await expect(startServer({ PORT: '0', NODE_ENV: 'production' })).rejects.toThrow(/API_KEYS is required/);
  });

  it('names a bad variable', async () => {
    await expect(startServer({ PORT: 'eighty' })).rejects.toThrow(/PORT/);
    await expect(startServer({ PORT: '0', SERVER: 'fastify' })).rejects.toThrow(/SERVER/);
  });
});

describe('the npm start process', () => {
  const start = spawnServer;

  it('prints its URL and dev key, and on SIGTERM lets the request in flight finish before exiting 0', async () => {
    const proc = start({});
    const [, url] = await proc.printed(LISTENING);
    const [, key] = await proc.printed(DEV_KEY);
    const reply = await sigtermWithRequestInFlight(proc, url, key);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).count).toBe(2);
    expect(await proc.exited).toBe(0);
  });

  it('on SIGTERM closes idle and silent connections after a short grace, finishes the request in flight, and exits by the deadline whatever clients hold open', async () => {
    const proc = start({ SHUTDOWN_TIMEOUT_MS: '1500' });
    const [, url] = await proc.printed(LISTENING);
    const [, key] = await proc.printed(DEV_KEY);
    const idle = await openRaw(url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    // Opened and silent, as a balancer's pre-opened connection: no request, nothing to wait for.
    const silent = await openRaw(url, '');
    const halfSentHeaders = await openRaw(url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n');
    const stalledBody = await openRaw(url, `POST /api/locations/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Length: 100\r\n\r\n{"zips":`);
    const inFlight = partialRequest(url, key);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    await vi.waitFor(() => expect(idle.received()).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\r\n\{/), { timeout: 5_000 });

    proc.child.kill('SIGTERM');
    await proc.printed(/"signal":"SIGTERM"[^\n]*"msg":"stopping/);
    // Closed while the request in flight is still waiting for the rest of its body.
    await Promise.all([idle.closed, silent.closed]);
    inFlight.finish();
    const reply = await inFlight.response;
    expect(reply.status).toBe(200);
    expect(await proc.exited).toBe(0);
    await Promise.all([halfSentHeaders.closed, stalledBody.closed]);
  });

  it('exits 1 with the reason when production has no keys', async () => {
    const proc = start({ NODE_ENV: 'production' });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/^error: API_KEYS is required/m);
  });
});
