// Request bodies: a size cap and JSON parsing with messages a client can act on. Oversized bodies
// are a 400, like any other invalid body: the API's error table (docs/http-api.md) has no 413 and clients already
// handle 400 `{ error }`.

import { InvalidInputError } from '../../engine/errors.js';

/** Largest accepted request body. A 50-ZIP batch is under 1 KiB, so this is generous. */
export const MAX_BODY_BYTES = 64 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const NOT_JSON = 'request body is not valid JSON';

/**
 * A body's bytes as text; bytes that are not UTF-8 are a 400 rather than replacement characters in
 * the answer. A body cut at MAX_BODY_BYTES + 1 bytes may end mid-character: it is decoded leniently,
 * and refused for its size.
 */
export function bodyText(bytes: Buffer): string {
  if (bytes.length > MAX_BODY_BYTES) return bytes.toString('utf8');
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new InvalidInputError('request body is not valid UTF-8');
  }
}

/**
 * Parses a JSON object body. Adapters may hand over only the first MAX_BODY_BYTES + 1 bytes of a
 * larger body (they stop buffering there), which is still enough to tell that it is too large.
 */
export function parseJsonObject(body: string | undefined): Record<string, unknown> {
  // Size first: 100 KB of spaces is too large before it is blank.
  if (body !== undefined && (body.length > MAX_BODY_BYTES || Buffer.byteLength(body) > MAX_BODY_BYTES)) {
    throw new InvalidInputError(`request body must be at most ${MAX_BODY_BYTES} bytes`);
  }
  if (body === undefined || body.trim() === '') {
    throw new InvalidInputError('request body is required: a JSON object');
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new InvalidInputError(NOT_JSON);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidInputError('request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** A form's media types: what `curl -d a=b` and an HTML form send, which are not JSON. */
const FORM_TYPE = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * The JSON object of a request body. A body that arrives still compressed fails as text or JSON; its
 * error then names the Content-Encoding, the cause a client can act on. A gateway that decompresses
 * (API Gateway does) passes the header on with plain JSON, which parses as any other body. A body
 * sent as a form is read as JSON too, as every body is: when it is not JSON, the error says it came
 * as a form (`curl -d zip=75201` sends one without `-H 'Content-Type: application/json'`).
 */
export async function readJsonObject(
  readBody: () => Promise<string | undefined>,
  headers: { 'content-encoding'?: string | undefined; 'content-type'?: string | undefined },
): Promise<Record<string, unknown>> {
  try {
    return parseJsonObject(await readBody());
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    const encoding = headers['content-encoding']?.trim() ?? '';
    if (encoding !== '' && encoding.toLowerCase() !== 'identity') {
      throw new InvalidInputError(`request body: Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported: send the body uncompressed`);
    }
    const form = FORM_TYPE.exec(headers['content-type'] ?? '');
    if (form && err.message === NOT_JSON) throw new InvalidInputError(`${NOT_JSON}: it came as a form (${form[1].toLowerCase()}); send a JSON object`);
    throw err;
  }
}
