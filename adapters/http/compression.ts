// Gzip for large answers: a carrier's whole network, a wide search, the OpenAPI document, the /docs
// and /map pages' assets. The look-ups nearly every client makes are a few kilobytes and go as they are.

import { constants, gzip, type ZlibOptions } from 'node:zlib';
import Negotiator from 'negotiator';
import { addVary, type HttpResponse, type SharedBody } from './request.js';

/**
 * The smallest answer sent gzipped. A fresh connection's first round trip carries about 14 KB (ten
 * segments, RFC 6928): an answer below that, headers and TLS included, arrives no sooner for being
 * smaller, and compressing it would cost every look-up CPU for nothing.
 */
export const GZIP_FROM_BYTES = 12 * 1024;

/**
 * An answer made for one request is compressed at level 1, nginx's default: the networks' JSON,
 * which it makes about a fifth of its size, saves 97% of what level 6 saves for about half the CPU.
 * A body served many times over is compressed once, at zlib's default level.
 */
const PER_ANSWER: ZlibOptions = { level: constants.Z_BEST_SPEED };
const ONCE: ZlibOptions = {};

const gzipAsync = (input: string | Buffer, options: ZlibOptions) =>
  new Promise<Buffer>((resolve, reject) => gzip(input, options, (err, bytes) => (err ? reject(err) : resolve(bytes))));

/**
 * The gzipped form of each shared body (its bytes made once: see SharedBody), made on first
 * request: its bytes and their base64 text, both made once. Text made per answer (0.6 MB for the
 * /docs script) piled up in a server whose client pipelines requests without reading the answers.
 */
const gzippedShared = new WeakMap<Buffer, Promise<SharedBody>>();

/** Whether the request's Accept-Encoding takes gzip over the body as it is. */
const takesGzip = (headers: Record<string, string | undefined>): boolean =>
  new Negotiator({ headers }).encoding(['gzip', 'identity']) === 'gzip';

/**
 * The answer gzipped when it is large and the client takes gzip. Every answer of that size says
 * `Vary: Accept-Encoding`, gzipped or not, so that a cache keeps the two forms apart. Compressing
 * runs on libuv's pool, so that a large answer does not hold up the server's other requests.
 */
export function gzipLarge(requestHeaders: Record<string, string | undefined>, response: HttpResponse): HttpResponse | Promise<HttpResponse> {
  // Characters are at most bytes: a body shorter than the threshold in characters may still be over
  // it in UTF-8, rarely, and then goes as it is.
  if (response.body.length < GZIP_FROM_BYTES || response.base64 || response.headers['Content-Encoding'] !== undefined) return response;
  addVary(response.headers, 'Accept-Encoding');
  if (!takesGzip(requestHeaders)) return response;
  const gzipped = response.bytes ? gzippedOnce(response.bytes) : gzipAsync(response.body, PER_ANSWER).then(base64Of);
  return gzipped.then(
    ({ body, bytes }) => {
      response.headers['Content-Encoding'] = 'gzip';
      return { status: response.status, headers: response.headers, body, base64: true, bytes };
    },
    // The answer as it is rather than none: a client that takes gzip takes the identity too.
    () => response,
  );
}

/** Gzipped bytes with their base64 text, the body an answer of bytes carries (Lambda's answer). */
const base64Of = (bytes: Buffer): SharedBody => ({ body: bytes.toString('base64'), bytes });

function gzippedOnce(bytes: Buffer): Promise<SharedBody> {
  let packed = gzippedShared.get(bytes);
  if (packed === undefined) {
    packed = gzipAsync(bytes, ONCE).then(base64Of);
    gzippedShared.set(bytes, packed);
    // A failure is not kept: the next request tries again.
    packed.catch(() => gzippedShared.delete(bytes));
  }
  return packed;
}
