import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GZIP_FROM_BYTES, gzipLarge } from '../../adapters/http/compression.js';
import { sharedBody, type HttpResponse } from '../../adapters/http/request.js';

const GZIP = { 'accept-encoding': 'gzip' };

describe('gzipLarge on a shared body', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes the base64 text of the gzipped bytes once, not for each answer', async () => {
    const shared = sharedBody('x'.repeat(GZIP_FROM_BYTES * 4));
    const answer = (): HttpResponse => ({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: shared.body, bytes: shared.bytes });
    const bufferToString = vi.spyOn(Buffer.prototype, 'toString');
    const first = await gzipLarge(GZIP, answer());
    const second = await gzipLarge(GZIP, answer());
    const third = await gzipLarge(GZIP, answer());
    expect(bufferToString.mock.calls.filter(([encoding]) => encoding === 'base64')).toHaveLength(1);
    expect(second.bytes).toBe(first.bytes);
    expect(third.body).toBe(first.body);
    expect(gunzipSync(Buffer.from(third.body, 'base64')).toString()).toBe(shared.body);
    expect(third.headers['Content-Encoding']).toBe('gzip');
  });
});
