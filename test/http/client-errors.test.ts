// What Node's HTTP layer answers by itself, over raw sockets on both servers: malformed requests,
// oversized headers, timeouts and unmet expectations are JSON `{ error }` with the right status,
// never an empty body, and the timeouts are the configured seconds, not Node's minutes.

import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../adapters/server.js';
import { exchangeRaw, openRaw } from '../support/raw-http.js';
import { API_KEYS, KEYS, SERVER_KINDS } from './fixtures.js';

const pad = 'a'.repeat(17 * 1024);
const keyed = `Host: x\r\nX-API-Key: ${KEYS.pro}\r\nContent-Type: application/json\r\n`;

const cases: [name: string, status: number, request: string, error: RegExp][] = [
  ['a header over 16 KB', 431, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: ${pad}\r\n\r\n`, /16 KB/],
  ['a URL over 16 KB', 431, `GET /api/health?pad=${pad} HTTP/1.1\r\nHost: x\r\n\r\n`, /16 KB/],
  ['both Content-Length and chunked', 400, `POST /api/locations/batch HTTP/1.1\r\n${keyed}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n`, /malformed/],
  ['an unknown method', 400, 'BREW /api/health HTTP/1.1\r\nHost: x\r\n\r\n', /malformed/],
  ['no Host on HTTP/1.1', 400, 'GET /api/health HTTP/1.1\r\n\r\n', /Host/],
  ['an Expect other than 100-continue', 417, 'GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: tea\r\n\r\n', /Expect: tea/],
  ['chunk extensions over 16 KB', 413, `POST /api/locations/batch HTTP/1.1\r\n${keyed}Transfer-Encoding: chunked\r\n\r\n1;${pad}\r\n`, /chunk extensions/],
  ['headers that never finish', 408, 'GET /api/health HTTP/1.1\r\nHost: x\r\n', /in time/],
  ['a CONNECT (no route is a tunnel)', 404, 'CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80\r\n\r\n', /^no route for CONNECT localhost:80$/],
  ['a body that stalls', 408, `POST /api/locations/batch HTTP/1.1\r\n${keyed}Content-Length: 100\r\n\r\n{"zips":`, /in time/],
];

describe.each(SERVER_KINDS)('Node-level errors on %s', (server) => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(
      { PORT: '0', SERVER: server, API_KEYS, LOG_LEVEL: 'silent', HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000' },
      { host: '127.0.0.1' },
    );
  });
  afterAll(() => running.close());

  it.each(cases)('%s: %i as JSON, then the connection closes', async (_name, status, request, error) => {
    const reply = await exchangeRaw(running.url, request);
    expect(reply.status).toBe(status);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toEqual({ error: expect.stringMatching(error) });
    // What every answer carries, these too.
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe.each(SERVER_KINDS)('an upload over the size cap that goes on slowly, on %s', (server) => {
  it('gets its 400 at once and nothing more: no 408 when the request timeout runs out', async () => {
    const running = await startServer(
      { PORT: '0', SERVER: server, API_KEYS, LOG_LEVEL: 'silent', HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000' },
      { host: '127.0.0.1' },
    );
    try {
      const upload = await openRaw(running.url, `POST /api/locations/batch HTTP/1.1\r\n${keyed}Content-Length: 100000\r\n\r\n${'1'.repeat(70_000)}`);
      const trickle = setInterval(() => upload.socket.writable && upload.write('1'), 100);
      await upload.closed;
      clearInterval(trickle);
      const replies = upload.received().match(/HTTP\/1\.1 \d{3}/g);
      expect(replies).toEqual(['HTTP/1.1 400']);
    } finally {
      await running.close();
    }
  });
});

describe('the connection cap', () => {
  it('closes connections beyond MAX_CONNECTIONS as they arrive, and takes new ones once others end', async () => {
    const running = await startServer({ PORT: '0', API_KEYS, LOG_LEVEL: 'silent', MAX_CONNECTIONS: '3' }, { host: '127.0.0.1' });
    try {
      const held = await Promise.all([1, 2, 3].map(() => openRaw(running.url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n')));
      await vi.waitFor(async () => expect(await promisify(running.server.getConnections.bind(running.server))()).toBe(3));
      const extra = await openRaw(running.url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await extra.closed;
      expect(extra.received()).toBe('');
      for (const c of held) c.socket.destroy();
      await Promise.all(held.map((c) => c.closed));
      await vi.waitFor(async () => expect((await fetch(`${running.url}/api/health`)).status).toBe(200));
    } finally {
      await running.close();
    }
  });
});

describe('the connection cap per client', () => {
  it('closes connections beyond MAX_CONNECTIONS_PER_CLIENT from one address as they arrive, and takes new ones once others end', async () => {
    const running = await startServer({ PORT: '0', API_KEYS, LOG_LEVEL: 'silent', MAX_CONNECTIONS_PER_CLIENT: '2' }, { host: '127.0.0.1' });
    try {
      const held = await Promise.all([1, 2].map(() => openRaw(running.url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n')));
      await vi.waitFor(async () => expect(await promisify(running.server.getConnections.bind(running.server))()).toBe(2));
      const extra = await openRaw(running.url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await extra.closed;
      expect(extra.received()).toBe('');
      held[0].socket.destroy();
      await held[0].closed;
      await vi.waitFor(async () => expect((await fetch(`${running.url}/api/health`)).status).toBe(200));
      held[1].socket.destroy();
    } finally {
      await running.close();
    }
  });
});
