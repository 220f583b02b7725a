// HTTP edges on real servers: a request with two Host headers is a 400; uploads over the size cap,
// keyless or keyed, get their JSON answer on both servers rather than a reset; and the default
// connection cap stays below the process's open-file limit, refusing (and logging, rate-limited)
// connections past it instead of letting the OS reset them.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../adapters/server.js';
import { exchangeRaw, openRaw, type RawConnection } from '../support/raw-http.js';
import { LISTENING, logLines, spawnServer } from '../support/server-process.js';
import { API_KEYS, KEYS, SERVER_KINDS } from './fixtures.js';

describe.each(SERVER_KINDS)('on %s', (server) => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer({ PORT: '0', SERVER: server, API_KEYS, LOG_LEVEL: 'silent' }, { host: '127.0.0.1' });
  });
  afterAll(() => running.close());

  it('answers two Host headers with a JSON 400 (RFC 9112 section 3.2), one with its answer', async () => {
    const twice = await exchangeRaw(running.url, 'GET /api/health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n');
    expect([twice.status, JSON.parse(twice.body)]).toEqual([400, { error: 'Host header must be given once' }]);
    const once = await fetch(`${running.url}/api/health`);
    expect(once.status).toBe(200);
  });

  it('gives every upload over the size cap its JSON answer before the connection closes: no reset, keyless or keyed', async () => {
    const size = 3 * 1024 * 1024;
    const body = Buffer.alloc(size, '1');
    const upload = (key: string | undefined) =>
      new Promise<string>((resolve) => {
        const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': size };
        if (key) headers['X-API-Key'] = key;
        const req = request(`${running.url}/api/locations/batch`, { method: 'POST', headers }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(`${res.statusCode} ${JSON.parse(text).error}`));
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`));
        req.end(body);
      });
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const outcome = await upload(i % 2 === 0 ? undefined : KEYS.pro);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect(Object.fromEntries(outcomes)).toEqual({
      '401 missing or invalid API key: send it in the X-API-Key header': 10,
      '400 request body must be at most 65536 bytes': 10,
    });
  });
});

describe('the default connection cap under a low open-file limit', () => {
  const OPEN_FILES = 200;

  it('warns at start of a MAX_CONNECTIONS that leaves the process fewer than 64 files of its own, and not of one that leaves more', async () => {
    const warning = "MAX_CONNECTIONS leaves fewer than 64 of the open-file limit (ulimit -n) for the process's own files: connections past that limit are reset by the OS instead of refused";
    for (const [cap, warned] of [[150, true], [136, false]] as const) {
      const proc = spawnServer({ SERVER: 'node', API_KEYS, LOG_LEVEL: 'info', MAX_CONNECTIONS: String(cap) }, { openFiles: OPEN_FILES });
      try {
        await proc.printed(LISTENING);
        const warnings = logLines(proc.stdout()).filter((l) => l.msg === warning);
        expect(warnings, `MAX_CONNECTIONS=${cap}`).toEqual(warned ? [expect.objectContaining({ maxConnections: cap, openFileLimit: OPEN_FILES })] : []);
      } finally {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
    }
  });

  it('stays below the limit, refuses connections past it in order, logs the refusals rate-limited, and serves again once they end', async () => {
    const proc = spawnServer({ SERVER: 'node', API_KEYS, LOG_LEVEL: 'info' }, { openFiles: OPEN_FILES });
    const held: RawConnection[] = [];
    try {
      const [, url] = await proc.printed(LISTENING);
      const base = url.replace('localhost', '127.0.0.1');
      const listening = logLines(proc.stdout()).find((l) => l.msg === 'listening')!;
      const cap = listening.maxConnections as number;
      expect(cap).toBeLessThan(OPEN_FILES);
      expect(cap).toBeGreaterThan(OPEN_FILES / 2);
      // Connections that send nothing, up to the cap: the server holds them all.
      for (let i = 0; i < cap; i++) held.push(await openRaw(base));
      // Past the cap: each is closed without an answer, not reset by an OS out of files.
      const extra = await Promise.all(Array.from({ length: 20 }, () => openRaw(base, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n')));
      await Promise.all(extra.map((c) => c.closed));
      for (const c of extra) expect(c.received()).toBe('');
      // Said once at first, then counted in a line per window, not once per connection.
      await vi.waitFor(() => expect(proc.stdout()).toMatch(/"refused":1[^\n]*"msg":"connection refused: limit reached"/), { timeout: 5_000 });
      const refusals = logLines(proc.stdout()).filter((l) => String(l.msg).startsWith('connection refused'));
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toMatchObject({ setting: 'MAX_CONNECTIONS', limit: cap, client: '127.0.0.1' });
      for (const c of held) c.socket.destroy();
      await vi.waitFor(async () => expect((await fetch(`${base}/api/health`)).status).toBe(200), { timeout: 10_000, interval: 100 });
    } finally {
      for (const c of held) c.socket.destroy();
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });
});
