// node:http request bodies in and core responses out, shared by the Express and node:http adapters.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from './http/body.js';
import type { HttpResponse } from './http/request.js';

/**
 * Reads the body, buffering at most MAX_BODY_BYTES + 1 bytes: enough for the core to tell the body
 * is too large, without letting a client fill the memory.
 */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  if (!hasBody(req)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      resolve(size === 0 ? undefined : Buffer.concat(chunks).toString('utf8'));
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return; // past the cap: the rest is read and dropped so the connection stays usable
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_BODY_BYTES) settle();
    });
    req.on('end', settle);
    req.on('error', (err) => {
      if (!settled) {
        settled = true;
        reject(err);
      }
    });
  });
}

/** Whether the request announces a body (a length above zero, or chunked transfer). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** A known length instead of chunked encoding: less framing, and the answer leaves in one write. */
export function writeResponse(res: ServerResponse, response: HttpResponse): void {
  response.headers['Content-Length'] = String(Buffer.byteLength(response.body));
  res.writeHead(response.status, response.headers).end(response.body);
}
