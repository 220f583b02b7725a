// Answers' bytes as servers send them: a Content-Length that counts the bytes sent, and text beyond
// ASCII that reads back as written. A search's answer is ASCII (characters beyond it as JSON's
// escapes), sent without counting; every other answer is UTF-8, counted.

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../../adapters/http/keys.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import { createLambdaHandler } from '../../adapters/lambda.js';
import { buildSnapshot } from '../../data/index.js';
import { createEngine } from '../../engine/index.js';
import { SMALL_DATASET, writeDataset } from '../support/small-dataset.js';
import { API_KEYS, createTestApp, KEYS, loopbackServers, SERVER_KINDS } from './fixtures.js';
import { httpApiEvent, replyOf } from './senders.js';

/** The small dataset, its Dallas terminal named and addressed beyond ASCII. */
const DEPOT = { name: 'Acme Dépôt Dallas', street: '1 Calle Peña' };

let root: string;
let accented: App;
const servers = loopbackServers();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'answer-encoding-'));
  const dataDir = writeDataset(join(root, 'data'), {
    ...SMALL_DATASET,
    'terminals.csv': SMALL_DATASET['terminals.csv'].replace('Acme Dallas,1 Elm St', `${DEPOT.name},${DEPOT.street}`),
  });
  const snapshot = join(root, 'accented.snapshot');
  buildSnapshot(snapshot, { dataDir });
  accented = createApp({ engine: createEngine({ snapshot }), keys: new KeyRing(parseApiKeys(API_KEYS)), kv: new MemoryKvStore() });
});
afterAll(async () => {
  await servers.closeAll();
  rmSync(root, { recursive: true, force: true });
});

/** Status, Content-Length and the bytes of a GET, as they came off the wire. */
function get(url: string): Promise<{ status: number; length: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'x-api-key': KEYS.enterprise } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, length: Number(res.headers['content-length']), bytes: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe.each(SERVER_KINDS)('on %s', (kind) => {
  it("sends a search's answer in ASCII, its names beyond ASCII escaped, its length the bytes sent", async () => {
    const url = await servers.listen(accented, kind);
    const { status, length, bytes } = await get(`${url}/api/locations?zip=75201&city=Dall%C3%A1s`);
    expect([status, length]).toEqual([200, bytes.length]);
    const text = bytes.toString('latin1');
    expect(text).toMatch(/^[ -~]*$/);
    expect(text).toContain('"name":"Acme D\\u00e9p\\u00f4t Dallas","address":"1 Calle Pe\\u00f1a"');
    const answer = JSON.parse(text);
    expect([answer.query.city, answer.results[0].name, answer.results[0].address]).toEqual(['Dallás', DEPOT.name, DEPOT.street]);
  });

  it('sends every other answer as UTF-8, its length the bytes sent', async () => {
    const url = await servers.listen(createTestApp(), kind);
    const { status, length, bytes } = await get(`${url}/api/carrier-c-location/search?q=C%C3%B3rdoba`);
    expect([status, length]).toEqual([200, bytes.length]);
    expect(bytes.toString('utf8')).toContain('"city":"Córdoba"');
  });
});

it("answers a search on Lambda, its names beyond ASCII read back as written", async () => {
  const handler = createLambdaHandler({ core: accented });
  const reply = replyOf(await handler(httpApiEvent({ method: 'GET', path: '/api/locations', query: { zip: '75201' }, headers: { 'x-api-key': KEYS.enterprise } })));
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body).results[0].name).toBe(DEPOT.name);
});
