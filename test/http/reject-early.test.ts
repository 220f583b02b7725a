// Route, key and quota are decided from the request line and headers: a refused request's body is
// never read (nor invited with "100 Continue"), its connection is closed after the answer, and a
// flood of keyless half-sent uploads leaves the server's memory where it was.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../adapters/server.js';
import { halfUpload, openRaw, parseReply, type RawConnection } from '../support/raw-http.js';
import { rssMb, startServerProcess } from '../support/server-process.js';
import { API_KEYS, KEYS, SERVER_KINDS } from './fixtures.js';

async function refusedAndClosed(connection: RawConnection) {
  await connection.closed;
  return parseReply(connection.received());
}

describe.each(SERVER_KINDS)('refusing before the body on %s', (server) => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer({ PORT: '0', SERVER: server, API_KEYS, LOG_LEVEL: 'silent' }, { host: '127.0.0.1' });
  });
  afterAll(() => running.close());

  it.each([
    ['no key', '/api/locations/batch', '', 401],
    ['a wrong key', '/api/locations/batch', 'X-API-Key: wrong\r\n', 401],
    ['an unknown route', '/api/uploads', `X-API-Key: ${KEYS.pro}\r\n`, 404],
    ['a spent quota', '/api/locations/batch', `X-API-Key: ${KEYS.spent}\r\n`, 429],
  ])('answers a half-sent upload with %s at once (%s) and closes the connection', async (_name, path, headers, status) => {
    if (status === 429) await fetch(`${running.url}/api/locations/geocode?zip=60601`, { headers: { 'x-api-key': KEYS.spent } });
    const reply = await refusedAndClosed(await openRaw(running.url, halfUpload(path, headers)));
    expect(reply.status).toBe(status);
    expect(reply.headers.connection).toBe('close');
    expect(JSON.parse(reply.body)).toEqual({ error: expect.any(String) });
  });

  it('keeps the connection of a refused request that has no body to skip', async () => {
    const reply = await fetch(`${running.url}/api/locations?zip=60601`);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('connection')).toBe('keep-alive');
  });

  it('answers an upload over the size cap with a 400 at once, and closes the connection while the client still sends', async () => {
    const headers = `POST /api/locations/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEYS.pro}\r\nContent-Length: 100000000\r\n\r\n`;
    const upload = await openRaw(running.url, headers + '{"zips":["' + '1'.repeat(70_000));
    await expect.poll(() => upload.received()).toMatch(/^HTTP\/1\.1 400 /);
    // The client goes on sending, as a large upload would: not read to its end (or the request timeout).
    const started = performance.now();
    for (let i = 0; i < 40 && !upload.socket.destroyed; i++) {
      upload.write('1'.repeat(64 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await upload.closed;
    expect(performance.now() - started).toBeLessThan(2_000);
    const reply = parseReply(upload.received());
    expect([reply.status, JSON.parse(reply.body)]).toEqual([400, { error: 'request body must be at most 65536 bytes' }]);
    expect(upload.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('sends "100 Continue" only once key and quota allow the upload', async () => {
    const expect100 = (key: string) =>
      `POST /api/locations/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 18\r\nExpect: 100-continue\r\n\r\n`;
    const refused = await refusedAndClosed(await openRaw(running.url, expect100('wrong')));
    expect(refused.status).toBe(401);

    const allowed = await openRaw(running.url, expect100(KEYS.pro));
    await expect.poll(() => allowed.received()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    allowed.write('{"zips":["60601"]}');
    await expect.poll(() => allowed.received().split('\r\n\r\n').length).toBeGreaterThan(2);
    const answer = parseReply(allowed.received().slice('HTTP/1.1 100 Continue\r\n\r\n'.length));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).count).toBe(1);
    allowed.socket.destroy();
  });
});

describe('a flood of keyless half-sent uploads', () => {
  const UPLOADS = 2_000;
  const AT_ONCE = 200;

  it.each(SERVER_KINDS)(`on %s: all ${UPLOADS} refused with 401 and closed, and memory stays bounded`, async (server) => {
    const proc = await startServerProcess({ SERVER: server, API_KEYS });
    try {
      // Warm up: the first requests load code and fill caches, which is not what is measured.
      for (let i = 0; i < 50; i++) await refusedAndClosed(await openRaw(proc.url, halfUpload('/api/locations/batch')));
      const before = rssMb(proc.pid);
      const statuses = new Map<number, number>();
      for (let sent = 0; sent < UPLOADS; sent += AT_ONCE) {
        const batch = await Promise.all(
          Array.from({ length: AT_ONCE }, async () => refusedAndClosed(await openRaw(proc.url, halfUpload('/api/locations/batch')))),
        );
        for (const reply of batch) statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }
      const after = rssMb(proc.pid);
      expect(Object.fromEntries(statuses)).toEqual({ 401: UPLOADS });
      // A held upload would keep its connection open and stall refusedAndClosed above; this checks
      // that what the refusals used is given back (no leak per refused upload).
      expect(after - before).toBeLessThan(64);
    } finally {
      await proc.stop();
    }
  });
});
