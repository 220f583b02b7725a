// The plain node:http adapter over a real loopback socket: the whole contract, plus what only a
// real connection shows (oversized uploads, keep-alive after an error).

import { Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../adapters/http/app.js';
import { describeApiContract } from './contract.js';
import { createTestApp, KEYS, loopbackServers } from './fixtures.js';
import { fetchSend } from './senders.js';

const servers = loopbackServers();
const listen = () => servers.listen(createTestApp());
afterAll(() => servers.closeAll());

describeApiContract('node:http adapter', async () => fetchSend(await listen()));

describe('node:http adapter over a socket', () => {
  let base: string;
  beforeAll(async () => {
    base = await listen();
  });

  it('refuses a body over the limit with a JSON 400 and keeps the connection usable', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: string) =>
      new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
        const req = request(`${base}/api/locations/batch`, {
          method: 'POST',
          agent,
          headers: { 'x-api-key': KEYS.pro, 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text, socket: req.socket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const big = await post(JSON.stringify({ zips: ['60601'], pad: 'x'.repeat(MAX_BODY_BYTES * 4) }));
    expect(big.status).toBe(400);
    expect(JSON.parse(big.body)).toEqual({ error: `request body must be at most ${MAX_BODY_BYTES} bytes` });
    const small = await post('{"zips":["60601"]}');
    expect(small.status).toBe(200);
    expect(small.socket).toBe(big.socket);
    agent.destroy();
  });

  it.each([
    ['a docs asset', '/docs/swagger-ui.css', {}],
    ["a carrier's network", '/api/networks/carrier-f', { 'x-api-key': KEYS.pro }],
  ])('sends %s gzipped, with its compressed length, to a client that takes gzip', async (_name, path, key) => {
    const get = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        request(`${base}${path}`, { headers: { ...key, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    const plain = await get({});
    const packed = await get({ 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toMatch(/(^|, )Accept-Encoding$/);
    expect(Number(packed.headers['content-length'])).toBe(packed.bytes.length);
    expect(packed.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(gunzipSync(packed.bytes).equals(plain.bytes)).toBe(true);
    // gzip;q=0 refuses it.
    expect((await get({ 'accept-encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD with the headers of GET and no body, and the connection goes on', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (method: string) =>
      new Promise<{ status: number; length: string | undefined; body: string; socket: unknown }>((resolve, reject) => {
        const req = request(`${base}/api/locations/geocode?zip=60601`, { method, agent, headers: { 'x-api-key': KEYS.pro } });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, length: res.headers['content-length'], body: text, socket: req.socket }));
        });
        req.on('error', reject);
        req.end();
      });
    const head = await ask('HEAD');
    const get = await ask('GET');
    expect([head.status, head.body]).toEqual([200, '']);
    expect(get.status).toBe(200);
    expect(head.length).toBe(String(Buffer.byteLength(get.body)));
    expect(JSON.parse(get.body).found).toBe(true);
    expect(get.socket).toBe(head.socket);
    agent.destroy();
  });

  it('reads a chunked body', async () => {
    const reply = await fetch(`${base}/api/locations/batch`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.pro, 'content-type': 'application/json' },
      body: new Blob(['{"zips":', '["60601"]}']).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(reply.status).toBe(200);
    expect((await reply.json()).count).toBe(1);
  });
});
