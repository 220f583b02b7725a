// Pipelined requests and clients that do not read: answers are memory held for the client, so a
// connection may have at most MAX_IN_FLIGHT_PER_CONNECTION waiting, one on which nothing moves is
// closed after the request timeout, and the answers of a connection that is gone are let go.

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

  it('closes a connection that pipelines more requests than the limit without reading the answers', async () => {
    const url = await listen(kind);
    const connection = await openRaw(url);
    connection.socket.pause();
    const sent = MAX_IN_FLIGHT_PER_CONNECTION * 25;
    connection.write(get('/openapi.json').repeat(sent));
    // A paused socket hears of its close only once it reads what came before it.
    await expect.poll(() => connectionsOf(server!).size).toBe(0);
    connection.socket.resume();
    await connection.closed;
    const answered = statuses(connection.received()).length;
    expect(answered).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_CONNECTION);
    expect(answered).toBeLessThan(sent);
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
