// Paths over real sockets on both servers: one trailing slash ignored everywhere, the docs assets
// looked up by their own names only (`/docs/constructor` is not an asset), and a bug's stack logged
// once however often a client triggers it.

import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/engine.js';
import { createApp } from '../../adapters/http/app.js';
import { createErrorLog } from '../../adapters/http/error-log.js';
import { KeyRing, parseApiKeys } from '../../adapters/http/keys.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import { createTestApp, KEYS, loopbackServers, sampleEngine, SERVER_KINDS } from './fixtures.js';

const servers = loopbackServers();
afterAll(() => servers.closeAll());

describe.each(SERVER_KINDS)('paths on %s', (kind) => {
  const base = servers.listen(createTestApp(), kind);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const reply = await fetch(`${await base}${path}`, { headers });
    return { status: reply.status, type: reply.headers.get('content-type') ?? '', body: await reply.text() };
  };

  it.each(['/api/health/', '/openapi.json/', '/docs/', '/docs/init.js/', '/docs/swagger-ui.css/', '/map/map.js/', '/map/states.json/'])('answers %s like its path without the slash', async (path) => {
    expect((await get(path)).status).toBe(200);
  });

  it('ignores one trailing slash on keyed routes, not two', async () => {
    expect((await get('/api/locations/geocode/?zip=60601', { 'x-api-key': KEYS.pro })).status).toBe(200);
    expect((await get('/api/locations/geocode//?zip=60601', { 'x-api-key': KEYS.pro })).status).toBe(404);
  });

  it('takes a `#` in the request target as part of the path, as every adapter does', async () => {
    // Clients drop a fragment before they send a request: fetch cannot send this target, a socket can.
    const { hostname, port } = new URL(await base);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(`GET /api/locations/geocode#x?zip=60601 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEYS.pro}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply.slice(0, reply.indexOf('\r\n'))).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'no route for GET /api/locations/geocode#x' });
  });

  it.each(['/docs/constructor', '/docs/__proto__', '/docs/toString', '/docs/hasOwnProperty', '/docs/valueOf/'])(
    'answers %s with a JSON 404, not a 500',
    async (path) => {
      const reply = await get(path);
      expect(reply.status).toBe(404);
      expect(reply.type).toMatch(/^application\/json/);
      expect(JSON.parse(reply.body)).toEqual({ error: expect.stringMatching(/^no route for GET /) });
    },
  );
});

describe('an unexpected error', () => {
  it('answers 500 { error } each time and logs its stack once', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString().trim().split('\n').map((l: string) => JSON.parse(l)));
        done();
      },
    });
    const real = sampleEngine();
    const broken: Engine = { ...real, carriers: real.carriers, geocode: () => { throw new TypeError('index out of range'); } };
    const core = createApp({ engine: broken, keys: new KeyRing(parseApiKeys(`${KEYS.pro}:pro`)), kv: new MemoryKvStore(), logger: pino({ level: 'error' }, sink) });
    const base = await servers.listen(core);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(`${base}/api/locations/geocode?zip=${10001 + i}`, { headers: { 'x-api-key': KEYS.pro } })),
    );
    for (const reply of replies) {
      expect(reply.status).toBe(500);
      expect(await reply.json()).toEqual({ error: 'internal error' });
    }
    const failures = lines.filter((l) => /request failed/.test(String(l.msg)));
    expect(failures).toHaveLength(1);
    expect((failures[0].err as { stack: string }).stack).toMatch(/TypeError: index out of range\n\s+at /);
  });
});

describe('createErrorLog', () => {
  it('mentions a repeating error at most once a minute, with the count, and a new kind at once', () => {
    const logged: { msg: string; repeats?: number; stack: boolean }[] = [];
    const logger = pino({ level: 'error' }, new Writable({
      write(chunk, _encoding, done) {
        const line = JSON.parse(chunk.toString());
        logged.push({ msg: line.msg, repeats: line.repeats, stack: typeof line.err?.stack === 'string' });
        done();
      },
    }));
    let clock = 0;
    const log = createErrorLog(logger, () => clock);
    // Made in one place with different messages: one kind of error.
    const same = Array.from({ length: 12 }, (_, i) => new RangeError(`bad ${i}`));
    for (let i = 0; i < 10; i++) log(same[i], `r${i}`);
    clock = 60_000;
    log(same[10], 'r10');
    log(same[11], 'r11');
    log(new TypeError('elsewhere'), 'r12');
    expect(logged).toEqual([
      { msg: 'request failed', repeats: undefined, stack: true },
      { msg: 'request failed again (stack logged before)', repeats: 10, stack: false },
      { msg: 'request failed', repeats: undefined, stack: true },
    ]);
  });
});
