// A request body must be UTF-8: bytes that are not (a Latin-1 "München" from an old client) are a
// 400 naming the body on every adapter, not replacement characters that change the question. A
// byte-order mark before the JSON is accepted. A body still compressed (Content-Encoding: gzip) is
// a 400 naming the encoding; a JSON body whose gateway decompressed it, header left on, is read.

import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createLambdaHandler } from '../../adapters/lambda.js';
import { createTestApp, KEYS, loopbackServers, SERVER_KINDS } from './fixtures.js';
import { httpApiEvent, replyOf, restApiEvent } from './senders.js';

const LATIN1 = Buffer.from('{"city":"M\xfcnchen","state":"ND"}', 'latin1');
const UTF8_WITH_BOM = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"zip":"75201"}')]);
const NOT_UTF8 = { error: 'request body is not valid UTF-8' };
const DALLAS = '{"zip":"75201"}';
const GZIPPED = gzipSync(DALLAS);
const NOT_GZIP = { error: 'request body: Content-Encoding "gzip" is not supported: send the body uncompressed' };
const FORM = 'application/x-www-form-urlencoded';
const NOT_JSON_FORM = { error: 'request body is not valid JSON: it came as a form (application/x-www-form-urlencoded); send a JSON object' };

const servers = loopbackServers();
afterAll(() => servers.closeAll());

describe.each(SERVER_KINDS)('POST /api/search on %s', (kind) => {
  const post = async (body: Buffer, headers: Record<string, string> = {}) => {
    const url = await servers.listen(createTestApp(), kind);
    const res = await fetch(`${url}/api/search`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.enterprise, 'content-type': 'application/json', ...headers },
      body: new Uint8Array(body),
    });
    return [res.status, await res.json()];
  };

  it('refuses a body that is not UTF-8', async () => {
    expect(await post(LATIN1)).toEqual([400, NOT_UTF8]);
  });

  it('reads a UTF-8 body that starts with a byte-order mark', async () => {
    const [status, body] = await post(UTF8_WITH_BOM);
    expect([status, body.resolved?.city]).toEqual([200, 'Dallas']);
  });

  it('refuses a gzipped body by its Content-Encoding', async () => {
    expect(await post(GZIPPED, { 'content-encoding': 'gzip' })).toEqual([400, NOT_GZIP]);
  });

  it("names a form's Content-Type when a body sent as a form is not JSON, and reads one that is", async () => {
    // What `curl -d zip=75201` sends.
    expect(await post(Buffer.from('zip=75201'), { 'content-type': FORM })).toEqual([400, NOT_JSON_FORM]);
    expect(await post(Buffer.from('--x\r\ncontent-disposition: form-data; name="zip"\r\n\r\n75201\r\n--x--'), { 'content-type': 'multipart/form-data; boundary=x' })).toEqual([
      400,
      { error: 'request body is not valid JSON: it came as a form (multipart/form-data); send a JSON object' },
    ]);
    // Any other type, as JSON's own: the plain message.
    expect(await post(Buffer.from('zip=75201'), { 'content-type': 'text/plain' })).toEqual([400, { error: 'request body is not valid JSON' }]);
    const [status, body] = await post(Buffer.from(DALLAS), { 'content-type': FORM });
    expect([status, body.resolved?.city]).toEqual([200, 'Dallas']);
  });

  it('reads plain JSON sent with Content-Encoding: gzip or identity', async () => {
    for (const encoding of ['gzip', 'identity']) {
      const [status, body] = await post(Buffer.from(DALLAS), { 'content-encoding': encoding });
      expect([encoding, status, body.resolved?.city]).toEqual([encoding, 200, 'Dallas']);
    }
  });
});

describe('POST /api/search on Lambda (a base64 body)', () => {
  const handler = createLambdaHandler({ core: createTestApp() });
  const request = { method: 'POST', path: '/api/search', headers: { 'x-api-key': KEYS.enterprise } };

  it('refuses a body that is not UTF-8, in the event shape it came in', async () => {
    // The senders encode a string body as UTF-8: the events are made with a stand-in of the same
    // byte length (so content-length holds), then carry the Latin-1 bytes.
    const standIn = { ...request, body: 'x'.repeat(LATIN1.length) };
    for (const event of [httpApiEvent(standIn, { base64: true }), restApiEvent(standIn, { base64: true })]) {
      event.body = LATIN1.toString('base64');
      const reply = replyOf(await handler(event));
      expect([reply.status, JSON.parse(reply.body)]).toEqual([400, NOT_UTF8]);
    }
  });

  it('refuses a gzipped body by its Content-Encoding, and reads the JSON a gateway decompressed', async () => {
    const gzipped = { ...request, headers: { ...request.headers, 'content-encoding': 'gzip' }, body: 'x'.repeat(GZIPPED.length) };
    for (const event of [httpApiEvent(gzipped, { base64: true }), restApiEvent(gzipped, { base64: true })]) {
      event.body = GZIPPED.toString('base64');
      const reply = replyOf(await handler(event));
      expect([reply.status, JSON.parse(reply.body)]).toEqual([400, NOT_GZIP]);
    }
    const decompressed = { ...gzipped, body: DALLAS };
    const form = { ...request, headers: { ...request.headers, 'content-type': FORM }, body: 'zip=75201' };
    for (const event of [httpApiEvent(form), restApiEvent(form)]) {
      const reply = replyOf(await handler(event));
      expect([reply.status, JSON.parse(reply.body)]).toEqual([400, NOT_JSON_FORM]);
    }
    for (const event of [httpApiEvent(decompressed), restApiEvent(decompressed)]) {
      const reply = replyOf(await handler(event));
      expect([reply.status, JSON.parse(reply.body).resolved?.city]).toEqual([200, 'Dallas']);
    }
  });
});
