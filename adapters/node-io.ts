// node:http request bodies in and core responses out, shared by the Express and node:http adapters.
// A body is read only when the core asks for it (its route takes one, key and quota allow it).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { bodyText, MAX_BODY_BYTES } from './http/body.js';
import { InvalidInputError } from '../engine/errors.js';
import { RequestTimeoutError } from './http/errors.js';
import type { HttpResponse } from './http/request.js';

/**
 * Responses of requests that sent `Expect: 100-continue` to a server that leaves the answer to
 * us (see http-server.ts): the client waits for "100 Continue" before sending its body.
 */
export const awaitingContinue = new WeakSet<ServerResponse>();

/** A request's body, read on demand; `unread` tells whether an announced body was left on the wire. */
export interface BodySource {
  read(): Promise<string | undefined>;
  unread(): boolean;
}

/** Requests that announce no body (nearly every GET) share one source instead of making their own. */
const NO_BODY: BodySource = { read: () => Promise.resolve(undefined), unread: () => false };

export function bodySource(req: IncomingMessage, res: ServerResponse): BodySource {
  if (!hasBody(req)) return NO_BODY;
  let started = false;
  return {
    read() {
      started = true;
      if (awaitingContinue.delete(res)) res.writeContinue();
      return readBody(req);
    },
    unread: () => !started && !req.complete,
  };
}

/**
 * Connections whose request was answered (its body too large) while its body still comes: what
 * Node reports of that request afterwards (its timeout) is no reason to answer it a second time.
 */
export const answeredBeforeBodyEnd = new WeakSet<object>();

/**
 * Connections whose request timed out while its body came, answered 408 by the server
 * (http-server.ts): the core's answer, which no one will receive, is logged as that 408.
 */
export const timedOutMidBody = new WeakSet<object>();

/**
 * A connection closed while its client still sends (an upload refused, or too large) is first
 * half-closed, and what still comes is read and dropped for up to this long or this much: closed
 * at once, its unread bytes would make the kernel send a reset, which can reach the client before
 * it has read the answer (it then sees ECONNRESET instead of its 401 or 400).
 */
const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * 1024 * 1024;

type ClosingSocket = Socket & { destroySoon(): void };

/**
 * Makes the close that follows this answer (Node closes a `Connection: close` response's socket
 * with destroySoon once it is written) a lingering one.
 */
function closeGently(socket: Socket): void {
  (socket as ClosingSocket).destroySoon = () => linger(socket);
}

/**
 * FIN after what was written, then the rest of the upload read and dropped until the client closes
 * its side, LINGER_MS pass or LINGER_BYTES come.
 */
function linger(socket: Socket): void {
  if (socket.destroyed) return;
  socket.end();
  let dropped = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  socket.resume();
}

/**
 * What a body too large may still hold past the cap for its connection to be kept: the rest is
 * read and dropped, and the client, likely still sending, reads its 400 and keeps its connection.
 * A larger upload (or one of unknown length) is answered with `Connection: close`, and the
 * connection closed after the answer (gently: see linger), rather than read to its end for nothing.
 */
const DRAIN_BYTES = 1024 * 1024;

/** Whether the connection of a request whose body went past the cap can be kept: what is left of the body is short. */
function drainable(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length !== undefined && req.headers['transfer-encoding'] === undefined && Number(length) <= MAX_BODY_BYTES + DRAIN_BYTES;
}

/**
 * Reads the body, buffering at most MAX_BODY_BYTES + 1 bytes: enough for the core to tell the body
 * is too large, without letting a client fill the memory. How long it may take is the server's
 * request timeout.
 */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      try {
        resolve(size === 0 ? undefined : bodyText(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    };
    req.on('data', (chunk: Buffer) => {
      // Past the cap the rest is dropped (writeResponse decides whether the connection is kept).
      if (settled) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        answeredBeforeBodyEnd.add(req.socket);
        req.once('end', () => answeredBeforeBodyEnd.delete(req.socket));
        settle();
      }
    });
    req.on('end', settle);
    // A client that went away or timed out mid-upload: nobody is left to read the answer.
    const cutOff = () => {
      if (settled) return;
      settled = true;
      reject(timedOutMidBody.has(req.socket) ? new RequestTimeoutError() : new InvalidInputError('request body was cut off'));
    };
    req.on('error', cutOff);
    req.on('close', () => (req.complete ? settle() : cutOff()));
  });
}

/** Whether the request announces a body (a length above zero, or chunked transfer). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A known length instead of chunked encoding: less framing, and the answer leaves in one write.
 * When the body was never read (the request was refused before it) or was too large, the
 * connection is closed after the answer rather than kept to drain an upload nobody wants; gently,
 * so that the client reads its answer rather than a reset.
 */
export function writeResponse(res: ServerResponse, response: HttpResponse, body?: BodySource): void {
  // A body of bytes (a gzipped /docs asset) comes as base64 text, unless its bytes come along.
  const bytes = response.bytes ?? (response.base64 ? Buffer.from(response.body, 'base64') : undefined);
  // Counting a body's UTF-8 bytes reads it through, and first makes one string of the pieces it
  // was joined from (about 1 us for a search's answer of 2 KB): an ASCII body's count is its length.
  const length = bytes ? bytes.length : response.ascii ? response.body.length : Buffer.byteLength(response.body);
  const headers = response.headers;
  // Headers as a flat list of names and values: Node writes them as they come, where an object
  // costs it a walk of its keys with a check of each (about twice the time of the whole head).
  // The answer's own headers are left as they are: an object given a property it did not have
  // takes a new shape, and walking that costs more than the list saves.
  const names = Object.keys(headers);
  const flat: string[] = [];
  for (let i = 0; i < names.length; i++) flat.push(names[i], headers[names[i]]);
  flat.push('Content-Length', String(length));
  // An upload left unread, or cut at the cap: the connection cannot carry another request.
  const req = res.req;
  let closing = headers.Connection === 'close';
  if (!closing && (body?.unread() || (answeredBeforeBodyEnd.has(req.socket) && !drainable(req)))) {
    flat.push('Connection', 'close');
    closing = true;
  }
  if (closing) closeGently(req.socket as Socket);
  res.writeHead(response.status, flat);
  // A string body leaves in one write with the head (Node joins the two: one piece for the
  // socket, cheaper than two), bytes in one write of two pieces (end corks the socket).
  if (bytes) res.end(bytes);
  // As many bytes as characters: the body is ASCII (nearly every answer is), and as latin1 the
  // same bytes leave without a pass of UTF-8 encoding.
  else res.end(response.body, length === response.body.length ? 'latin1' : 'utf8');
}
