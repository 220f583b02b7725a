// The node:http server under both self-hosted servers (Express and plain node:http): timeouts of
// seconds and a connection cap, so a client cannot hold the server by sending slowly or not at all,
// and a JSON `{ error }` for what Node answers by itself (malformed requests, oversized headers,
// timeouts, an `Expect` it cannot meet), which would otherwise be an empty body.

import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, errorResponse } from './http/errors.js';
import { JSON_TYPE } from './http/request.js';
import { DEFAULT_LIMITS, type ServerLimits } from './http/config.js';
import { capConnectionsPerClient, connectionsOf } from './connections.js';
import { answeredBeforeBodyEnd, awaitingContinue, writeResponse } from './node-io.js';

/**
 * How often Node looks for requests past their headers or request timeout. Its default (30 s)
 * would let a timeout of 10 s run to 40.
 */
const TIMEOUT_CHECK_MS = 1_000;

/** Errors of Node's HTTP parser and timers, and what the client is told. */
const CLIENT_ERRORS: Record<string, [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request line and headers must be at most 16 KB'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'chunk extensions must be at most 16 KB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request was not received in time'],
};

export function createHttpServer(listener: RequestListener, limits: ServerLimits = DEFAULT_LIMITS): Server {
  const handle: RequestListener = (req, res) => {
    // Closed for pipelining too far ahead (connections.ts): nobody is left to answer.
    if (req.socket.destroyed) return;
    if (req.headers.host === undefined && req.httpVersion === '1.1') return answerError(res, 400, 'Host header is required');
    listener(req, res);
  };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, limits.headersTimeoutMs),
      // Node would answer a missing Host with an empty 400; this listener answers it as JSON.
      requireHostHeader: false,
    },
    handle,
  );
  server.maxConnections = limits.maxConnections;
  // A connection on which nothing moves either way for longer than a request may take is closed:
  // the timeouts above end with the request, and a client that stops reading its answers would
  // otherwise hold them forever. The margin lets a stalled request get its 408 first.
  server.timeout = limits.requestTimeoutMs + 2 * TIMEOUT_CHECK_MS;
  connectionsOf(server);
  if (limits.maxConnectionsPerClient !== undefined) capConnectionsPerClient(server, limits.maxConnectionsPerClient);
  // Node would send "100 Continue" before the route, key and quota are known; the body reader
  // sends it once the core asks for the body, and a refused client never sends its upload.
  server.on('checkContinue', (req, res: ServerResponse) => {
    awaitingContinue.add(res);
    handle(req, res);
  });
  server.on('checkExpectation', (req, res: ServerResponse) => {
    answerError(res, 417, `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported (only 100-continue)`);
  });
  server.on('clientError', answerClientError);
  // Node hands a CONNECT (a proxy tunnel request) to this event, and closes the socket in silence
  // when nobody listens: no route here is a tunnel.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    writeRawError(socket, 404, `no route for CONNECT ${String(req.url).slice(0, 200)}`);
    socket.destroy();
  });
  return server;
}

function answerError(res: ServerResponse, status: number, message: string): void {
  // The request may have a body nobody reads: the connection cannot be reused.
  writeResponse(res, errorResponse(status, message, { 'X-Content-Type-Options': 'nosniff', Connection: 'close' }));
}

/**
 * Node has no request or response object for these: the answer is written to the socket, unless the
 * request already has one (begun, or sent while its body still comes: a timeout after either).
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own handler checks the same internal field: the response in progress on this socket.
  const inProgress = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  const answered = inProgress?.headersSent === true || answeredBeforeBodyEnd.has(socket);
  if (err.code !== 'ECONNRESET' && socket.writable && !answered) {
    const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'malformed HTTP request'];
    writeRawError(socket, status, message);
  }
  socket.destroy(err);
}

/** A JSON error written straight to the socket, the connection to close after it. */
function writeRawError(socket: Duplex, status: number, message: string): void {
  const body = errorBody(message);
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
