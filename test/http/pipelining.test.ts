// Pipelined requests and clients that do not read: answers are memory held for the client, so a
// connection with MAX_IN_FLIGHT_PER_CONNECTION waiting is not read further (every request sent is
// still answered, in order), one on which nothing moves is closed after the request timeout, and
// the answers of a connection that is gone are let go.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionsOf, MAX_IN_FLIGHT_PER_CONNECTION } from '../../adapters/connections.js';
import { createExpressApp } from '../../adapters/express.js';
import { DEFAULT_LIMITS } from '../../adapters/http/config.js';
import { createHttpServer } from '../../adapters/http-server.js';
import { createNodeHandler } from '../../adapters/node.js';
import { openRaw } from '../support/raw-http.js';
import { createTestApp, SERVER_KINDS, type ServerKind } from './fixtures.js';

const REQUEST_TIMEOUT_MS = 1_500;
const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function listen(kind: ServerKind): Promise<string> {
  const core = createTestApp();
  const limits = { ...DEFAULT_LIMITS, headersTimeoutMs: REQUEST_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS };
  server = createHttpServer(kind === 'node' ? createNodeHandler(core) : createExpressApp(core), limits);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// Each answer follows the body before it on the same line.
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((m) => Number(m[1]));
/** A GET whose answer carries `r-<i>` as its request id, so the order of answers can be read back. */
const traced = (path: string, i: number) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: r-${i}\r\n\r\n`;
const requestIds = (text: string) => [...text.matchAll(/\r\nX-Request-Id: (r-\d+)\r\n/gi)].map((m) => m[1]);

describe.each(SERVER_KINDS)('pipelining on %s', (kind) => {
  it('answers pipelined requests up to the limit, in order', async () => {
    const url = await listen(kind);
    const paths = ['/openapi.json', '/api/health', '/nope', '/openapi.json'];
    const connection = await openRaw(url, paths.map(get).join(''));
    // The first health report of a process runs its probes cold: give it time.
    await expect.poll(() => statuses(connection.received()).length, { timeout: 10_000 }).toBe(paths.length);
    expect(statuses(connection.received())).toEqual([200, 200, 404, 200]);
    connection.socket.destroy();
  });

  it('answers 40 requests pipelined in one packet, each in order, and keeps the connection', async () => {
    const url = await listen(kind);
    const paths = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? '/nope' : i % 3 === 1 ? '/api/health' : '/api/locations?zip=60601'));
    const connection = await openRaw(url, paths.map((path, i) => traced(path, i)).join(''));
    await expect.poll(() => statuses(connection.received()).length, { timeout: 15_000 }).toBe(paths.length);
    expect(statuses(connection.received())).toEqual(paths.map((p) => (p === '/nope' ? 404 : p === '/api/health' ? 200 : 401)));
    expect(requestIds(connection.received())).toEqual(paths.map((_, i) => `r-${i}`));
    // Still open: one more request is answered on it.
    connection.write(traced('/nope', 40));
    await expect.poll(() => statuses(connection.received()).length).toBe(41);
    connection.socket.destroy();
  });

  it('answers a malformed request pipelined behind others after their answers, in order, then closes the connection', async () => {
    const url = await listen(kind);
    // The first answer waits for work of its own (the OpenAPI document's first build, the health
    // probes) or is given at once (a 404): either way the malformed request's 400 comes last.
    for (const first of ['/openapi.json', '/api/health', '/nope']) {
      const malformed = 'GET /nope HTTP/1.1\r\nHost x\r\n\r\n'; // a header line without its colon
      const connection = await openRaw(url, traced(first, 0) + traced('/nope', 1) + malformed);
      await connection.closed;
      const text = connection.received();
      expect(statuses(text)).toEqual([first === '/nope' ? 404 : 200, 404, 400]);
      expect(requestIds(text)).toEqual(['r-0', 'r-1']);
      expect(text.slice(text.lastIndexOf('HTTP/1.1 400'))).toMatch(/\r\nConnection: close\r\n(?:[^\r\n]+\r\n)*\r\n\{"error":"malformed HTTP request"\}$/);
    }
  });

  it('answers a CONNECT pipelined behind a request after that request\'s answer', async () => {
    const url = await listen(kind);
    for (const first of ['/openapi.json', '/nope']) {
      const connection = await openRaw(url, `${traced(first, 0)}CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
      await connection.closed;
      const text = connection.received();
      expect(statuses(text)).toEqual([first === '/nope' ? 404 : 200, 404]);
      expect(requestIds(text)).toEqual(['r-0']);
      expect(text).toMatch(/\{"error":"no route for CONNECT example\.com:443"\}$/);
    }
  });

  it('stops reading a connection whose client pipelines without reading, and answers every request, in order, once it reads', async () => {
    const url = await listen(kind);
    const connection = await openRaw(url);
    connection.socket.pause();
    // Requests of a kilobyte each, for a document of 150 KB each: far more requests than one read
    // of the socket holds, and answers far beyond what the kernel buffers for a client not reading.
    const sent = 400;
    const pad = `X-Pad: ${'p'.repeat(1000)}\r\n`;
    const requests = Array.from({ length: sent }, (_, i) => traced('/openapi.json', i).replace('\r\n\r\n', `\r\n${pad}\r\n`)).join('');
    connection.write(requests);
    // The answers queued behind the one being written.
    const waiting = () => [...connectionsOf(server!).values()][0]?.size ?? 0;
    await expect.poll(waiting).toBeGreaterThanOrEqual(MAX_IN_FLIGHT_PER_CONNECTION - 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The rest waits in the socket, unread: the server holds the answers of a read or two, not of every request sent.
    const [socket] = connectionsOf(server!).keys();
    expect(socket!.bytesRead).toBeLessThan(requests.length / 2);
    expect(waiting()).toBeLessThan(sent / 2);
    connection.socket.resume();
    await expect.poll(() => requestIds(connection.received()).length, { timeout: 30_000 }).toBe(sent);
    expect(requestIds(connection.received())).toEqual(Array.from({ length: sent }, (_, i) => `r-${i}`));
    expect(new Set(statuses(connection.received()))).toEqual(new Set([200]));
    connection.socket.destroy();
  });

  it('closes a connection whose client stops reading, after the request timeout, and lets its answers go', async () => {
    const url = await listen(kind);
    const connection = await openRaw(url);
    connection.socket.pause();
    const started = performance.now();
    // Megabytes of answers: more than the socket buffers hold, so they wait on the client.
    connection.write(get('/openapi.json').repeat(MAX_IN_FLIGHT_PER_CONNECTION));
    await expect.poll(() => [...connectionsOf(server!).values()][0]?.size ?? 0).toBeGreaterThan(1);
    // Closed on the server's side; the paused client would hear of it only by reading.
    await expect.poll(() => connectionsOf(server!).size, { timeout: 10_000 }).toBe(0);
    expect(performance.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS * 0.9);
    connection.socket.destroy();
  });
});
