// The log of `npm start` as an operator reads it: every line on standard output is one pino JSON
// object (start-up, the development key, each answer, the stop), each answer is logged once with
// the status the client got (Node's own refusals included), its request id, the client's address
// (X-Forwarded-For only through TRUST_PROXY) and the key's name or hash prefix, never the key.

import { hash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SNAPSHOT } from '../../engine/package-files.js';
import { exchangeRaw, openRaw, parseReply } from '../support/raw-http.js';
import { DEV_KEY, LISTENING, logLines, spawnServer, startServerProcess } from '../support/server-process.js';
import { SERVER_KINDS } from './fixtures.js';

const NAMED_KEY = 'secret-key-for-mobile-1';
const UNNAMED_KEY = 'secret-key-unnamed-2';
const API_KEYS = `mobile=${NAMED_KEY}:pro,${UNNAMED_KEY}:basic`;
const keyed = (key: string) => `Host: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\n`;

type Line = Record<string, unknown>;
const requestLines = (lines: Line[]) => lines.filter((line) => line.msg === 'request');

describe.each(SERVER_KINDS)('the log of the %s server', (server) => {
  it('is JSON on every line and logs every answer once, with its real status, client and key name', async () => {
    const proc = await startServerProcess({
      SERVER: server, API_KEYS, LOG_LEVEL: 'info', TRUST_PROXY: '1', HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000',
    });
    const asked: { id: string; status: number; keyId: string | undefined; client: string }[] = [];
    const ask = async (path: string, headers: Record<string, string>, keyId: string | undefined, client: string) => {
      const answer = await fetch(`${proc.url}${path}`, { headers });
      await answer.arrayBuffer();
      asked.push({ id: answer.headers.get('x-request-id')!, status: answer.status, keyId, client });
    };
    try {
      // One proxy trusted: the last X-Forwarded-For entry is the client; the earlier one is the client's claim.
      await ask('/api/locations?zip=60601', { 'X-API-Key': NAMED_KEY, 'X-Forwarded-For': '10.9.9.9, 198.51.100.9' }, 'mobile', '198.51.100.9');
      await ask('/api/locations?zip=60601', { 'X-API-Key': UNNAMED_KEY }, hash('sha256', UNNAMED_KEY, 'hex').slice(0, 8), '127.0.0.1');
      await ask('/api/locations?zip=6060', { 'X-API-Key': NAMED_KEY }, 'mobile', '127.0.0.1');
      await ask('/api/locations?zip=60601', { 'X-API-Key': 'not-a-key' }, undefined, '127.0.0.1');
      await ask('/nope', {}, undefined, '127.0.0.1');
      const longPath = `/${'x'.repeat(5_000)}`;
      await ask(longPath, {}, undefined, '127.0.0.1');
      // What Node's HTTP layer answers by itself.
      const raw: [string, number][] = [
        [`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431],
        ['BREW /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 400],
        ['GET /api/health?probe=1 HTTP/1.1\r\nHost: x\r\nExpect: tea\r\n\r\n', 417],
        ['GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 400],
        ['GET /api/health HTTP/1.1\r\nHost: x\r\n', 408],
        // The route reads the body (key and quota allow it), which stalls: Node answers 408.
        [`POST /api/locations/batch HTTP/1.1\r\n${keyed(NAMED_KEY)}Content-Length: 100\r\n\r\n{"zips":`, 408],
        [`POST /api/locations/batch HTTP/1.1\r\n${keyed(NAMED_KEY)}Content-Length: ${70 * 1024}\r\n\r\n${' '.repeat(70 * 1024)}`, 400],
      ];
      const rawStatuses: number[] = [];
      for (const [request, status] of raw) {
        const reply = await exchangeRaw(proc.url, request);
        expect(reply.status).toBe(status);
        rawStatuses.push(reply.status);
      }
      await proc.stop();
      const lines = logLines(proc.stdout());
      expect(proc.stdout()).not.toContain(NAMED_KEY);
      expect(proc.stdout()).not.toContain(UNNAMED_KEY);
      expect(lines[0]).toMatchObject({ level: 30, msg: 'loading data' });
      expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['listening', 'stopping: finishing requests in flight', 'stopped']));
      for (const line of lines) expect(line).toMatchObject({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String) });
      const logged = requestLines(lines);
      for (const { id, status, keyId, client } of asked) {
        const mine = logged.filter((l) => l.requestId === id);
        expect(mine).toHaveLength(1);
        expect(mine[0]).toMatchObject({ status, client });
        expect(mine[0].keyId).toBe(keyId);
      }
      // Each raw request is logged once, with the status its client got: no 400 for the stalled body.
      const rawLogged = logged.filter((l) => !asked.some((a) => a.id === l.requestId));
      expect(rawLogged.map((l) => l.status).sort()).toEqual([...rawStatuses].sort());
      for (const line of rawLogged) expect(line).toMatchObject({ requestId: expect.any(String), client: '127.0.0.1' });
      // The path without its query, as the core logs it, and a long one cut to its first 200 characters.
      expect(rawLogged.find((l) => l.status === 417)).toMatchObject({ method: 'GET', path: '/api/health' });
      expect(logged.find((l) => l.requestId === asked.at(-1)!.id)).toMatchObject({ status: 404, path: longPath.slice(0, 200) });
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});

describe.each(SERVER_KINDS)('a malformed request on a connection whose earlier request was answered, on the %s server', (server) => {
  it('is answered 400 and logged, as on a new connection', async () => {
    const proc = await startServerProcess({ SERVER: server, API_KEYS, LOG_LEVEL: 'info' });
    try {
      const connection = await openRaw(proc.url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await vi.waitFor(() => expect(connection.received()).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\r\n\{/), { timeout: 10_000 });
      const first = connection.received().length;
      connection.write('BREW /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await connection.closed;
      const second = parseReply(connection.received().slice(first));
      expect(second.status).toBe(400);
      expect(JSON.parse(second.body)).toEqual({ error: expect.stringMatching(/malformed/) });
      await proc.stop();
      expect(requestLines(logLines(proc.stdout())).map((l) => l.status)).toEqual([200, 400]);
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});

describe('the client address without TRUST_PROXY', () => {
  it('is the socket peer: X-Forwarded-For is a claim of the client, not logged as its address', async () => {
    const proc = await startServerProcess({ SERVER: 'node', API_KEYS, LOG_LEVEL: 'info' });
    try {
      const answer = await fetch(`${proc.url}/api/health`, { headers: { 'X-Forwarded-For': '203.0.113.50' } });
      const id = answer.headers.get('x-request-id');
      await answer.arrayBuffer();
      await proc.stop();
      const line = requestLines(logLines(proc.stdout())).find((l) => l.requestId === id);
      expect(line).toMatchObject({ status: 200, client: '127.0.0.1' });
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});

describe('the development key notice', () => {
  it('is a JSON line holding the key outside production, even with LOG_LEVEL=warn', async () => {
    const proc = await startServerProcess({ SERVER: 'node', LOG_LEVEL: 'warn' });
    try {
      const [, key] = await proc.printed(DEV_KEY);
      expect((await fetch(`${proc.url}/api/locations?zip=60601`, { headers: { 'X-API-Key': key } })).status).toBe(200);
      await proc.stop();
      const lines = logLines(proc.stdout());
      expect(lines.map((l) => l.msg)).toEqual(['listening', 'development API key: send it as X-API-Key (set API_KEYS to choose keys)', 'stopping: finishing requests in flight', 'stopped']);
    } finally {
      proc.child.kill('SIGKILL');
    }
  });

  it('is never written in production', async () => {
    // Production serves only data it is given: the sample's snapshot, named as an operator would name theirs.
    const proc = spawnServer({ SERVER: 'node', NODE_ENV: 'production', SNAPSHOT_PATH: DEFAULT_SNAPSHOT, API_KEYS, LOG_LEVEL: 'info' });
    try {
      await proc.printed(LISTENING);
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
      expect(proc.stdout()).not.toMatch(/devKey|development API key/);
      logLines(proc.stdout());
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes pino-pretty lines instead of JSON', async () => {
    const proc = spawnServer({ SERVER: 'node', API_KEYS, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    try {
      await proc.printed(/INFO.*listening/);
      proc.child.kill('SIGTERM');
      const code = await proc.exited;
      expect([code, proc.child.signalCode, proc.output()]).toEqual([0, null, expect.any(String)]);
      expect(() => logLines(proc.stdout())).toThrow(/not JSON/);
      expect(proc.stdout()).toMatch(/url: "http:\/\/localhost:\d+"/);
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});
