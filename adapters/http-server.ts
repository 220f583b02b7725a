// The node:http server under both self-hosted servers (Express and plain node:http): timeouts of
// seconds and a connection cap, so a client cannot hold the server by sending slowly or not at all,
// and a JSON `{ error }` for what Node answers by itself (malformed requests, oversized headers,
// timeouts, an `Expect` it cannot meet), which would otherwise be an empty body.

import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pino, type Logger } from 'pino';
import { errorBody, errorResponse, REQUEST_TIMEOUT_MESSAGE } from './http/errors.js';
import { clientAddress, JSON_TYPE, plainAddress, requestIdFor, shownPath, splitTarget, withEveryAnswerHeaders } from './http/request.js';
import { DEFAULT_LIMITS, type ServerLimits } from './http/config.js';
import { capConnectionsPerClient, connectionsOf, currentResponse } from './connections.js';
import { answeredBeforeBodyEnd, awaitingContinue, timedOutMidBody, writeResponse } from './node-io.js';

/**
 * How often Node looks for requests past their headers or request timeout. Its default (30 s)
 * would let a timeout of 10 s run to 40.
 */
const TIMEOUT_CHECK_MS = 1_000;

/** Errors of Node's HTTP parser and timers, and what the client is told. */
const CLIENT_ERRORS: Record<string, [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request line and headers must be at most 16 KB'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'chunk extensions must be at most 16 KB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, REQUEST_TIMEOUT_MESSAGE],
};

/** Where the server's own answers are logged, as the core logs its answers (app.ts). */
export interface ServerLog {
  logger: Logger;
  /** TRUST_PROXY: proxies trusted to name the client in X-Forwarded-For. */
  trustProxy?: number | undefined;
}

export function createHttpServer(listener: RequestListener, limits: ServerLimits = DEFAULT_LIMITS, log: ServerLog = { logger: pino({ level: 'silent' }) }): Server {
  const { logger, trustProxy = 0 } = log;
  /** An answer the server gives before (or instead of) the core: logged as the core logs its own. */
  const answerError = (req: IncomingMessage, res: ServerResponse, status: number, message: string) => {
    const requestId = requestIdFor(req.headers['x-request-id'] as string | undefined);
    // The request may have a body nobody reads: the connection cannot be reused.
    writeResponse(res, errorResponse(status, message, withEveryAnswerHeaders({ Connection: 'close' }, requestId)));
    const head = { headers: req.headers as Record<string, string | undefined>, client: req.socket.remoteAddress };
    logger.info({ requestId, method: req.method, path: shownPath(splitTarget(req.url ?? '/').path), status, client: clientAddress(head, trustProxy) }, 'request');
  };
  /** What Node's parser or timers refused before there was a request to hand on. */
  const logRefusal = (requestId: string, client: string | undefined, status: number, reason: string | undefined) =>
    logger.info({ requestId, status, client, reason }, 'request');
  const handle: RequestListener = (req, res) => {
    // Closed for pipelining too far ahead (connections.ts): nobody is left to answer.
    if (req.socket.destroyed) return;
    if (req.headers.host === undefined && req.httpVersion === '1.1') return answerError(req, res, 400, 'Host header is required');
    // RFC 9112 section 3.2: more than one Host is a 400 (Node keeps the first and drops the rest).
    if (hostCount(req.rawHeaders) > 1) return answerError(req, res, 400, 'Host header must be given once');
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
  // In a cluster worker (WORKERS=N) Node hands a connection past the limit back to the primary for
  // another worker, which hands it on again while every worker is full: the primary then holds it
  // unanswered and spins. Dropped here instead, as one process drops it, and logged below.
  // (Node 22.12 and later; @types/node does not declare it yet.)
  (server as typeof server & { dropMaxConnection: boolean }).dropMaxConnection = true;
  // Connections refused as they arrive: said, but at most once per window however many come.
  const refused = refusalLog(logger);
  server.on('drop', (data?: { remoteAddress?: string }) => refused('MAX_CONNECTIONS', plainAddress(data?.remoteAddress), limits.maxConnections));
  // A connection on which nothing moves either way for longer than a request may take is closed:
  // the timeouts above end with the request, and a client that stops reading its answers would
  // otherwise hold them forever. The margin lets a stalled request get its 408 first.
  server.timeout = limits.requestTimeoutMs + 2 * TIMEOUT_CHECK_MS;
  connectionsOf(server);
  if (limits.maxConnectionsPerClient !== undefined) {
    const cap = limits.maxConnectionsPerClient;
    capConnectionsPerClient(server, cap, (address) => refused('MAX_CONNECTIONS_PER_CLIENT', plainAddress(address), cap));
  }
  // Node would send "100 Continue" before the route, key and quota are known; the body reader
  // sends it once the core asks for the body, and a refused client never sends its upload.
  server.on('checkContinue', (req, res: ServerResponse) => {
    awaitingContinue.add(res);
    handle(req, res);
  });
  server.on('checkExpectation', (req, res: ServerResponse) => {
    answerError(req, res, 417, `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported (only 100-continue)`);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Read before the socket is destroyed, which forgets it.
    const client = plainAddress((socket as Socket).remoteAddress);
    // Node has parsed no headers to take a caller's id from: the answer and its log line share a new one.
    const requestId = requestIdFor(undefined);
    const answered = answerClientError(err, socket, requestId);
    if (answered !== undefined) logRefusal(requestId, client, answered, err.code);
  });
  // Node hands a CONNECT (a proxy tunnel request) to this event, and closes the socket in silence
  // when nobody listens: no route here is a tunnel.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const requestId = requestIdFor(req.headers['x-request-id'] as string | undefined);
    // After the answers of the requests ahead of it on the connection, as any pipelined request.
    afterAnswers(socket, () => {
      if (socket.writable) writeRawError(socket, 404, `no route for CONNECT ${shownPath(String(req.url))}`, requestId);
      socket.destroy();
    });
    logger.info({ requestId, method: 'CONNECT', path: shownPath(String(req.url)), status: 404, client: plainAddress(req.socket.remoteAddress) }, 'request');
  });
  return server;
}

/**
 * How many Host headers the request sent, from its raw name/value list: `headersDistinct` would
 * build a second copy of every header of every request to tell.
 */
function hostCount(raw: string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') count++;
  return count;
}

/** Connections whose error answer waits for the answers ahead of it (answerClientError). */
const answerQueued = new WeakSet<Duplex>();

/**
 * Node has no request or response object for these: the answer is written to the socket, unless the
 * request already has one (begun, or sent while its body still comes: a timeout after either).
 * Returns the status to log, when this is the only answer the request gets: a request already
 * handed to the core is logged there, once, with the status it was given (node-io.ts).
 *
 * A client that pipelines may send a malformed request behind requests read whole and still being
 * answered. Its answer then waits for theirs, so that every request gets its own answer, in order;
 * Node's own handler writes its 400 at once, ahead of them (the client takes it for the first
 * request's answer), or none once an answer has begun, and closes the connection on the answers
 * still to come.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, requestId: string): number | undefined {
  // Node's parser, in error, reports the same error again for each read that follows.
  if (answerQueued.has(socket)) return undefined;
  // The response in progress on this socket, as Node's own handler checks.
  const inProgress = currentResponse(socket);
  const [code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'malformed HTTP request'];
  if (inProgress?.req.complete === true && err.code !== 'ECONNRESET') {
    answerQueued.add(socket);
    afterAnswers(socket, () => {
      // Not writable when the last answer closed the connection (its request asked to).
      if (socket.writable) writeRawError(socket, code, message, requestId);
      socket.destroy(err);
    });
    return code;
  }
  const answered = inProgress?.headersSent === true || answeredBeforeBodyEnd.has(socket);
  let status: number | undefined;
  if (err.code !== 'ECONNRESET' && socket.writable && !answered) {
    writeRawError(socket, code, message, requestId);
    status = code;
    if (inProgress !== undefined && err.code === 'ERR_HTTP_REQUEST_TIMEOUT') timedOutMidBody.add(socket);
  }
  socket.destroy(err);
  return inProgress === undefined ? status : undefined;
}

/**
 * Calls `then` once the connection's answers have all been written: Node hands the connection to
 * the next queued answer as one finishes, before a listener added here runs. A connection closed
 * first (a client gone, an idle timeout) never calls it.
 */
function afterAnswers(socket: Duplex, then: () => void): void {
  const answer = currentResponse(socket);
  if (answer === undefined) then();
  else answer.once('finish', () => afterAnswers(socket, then));
}

/** How often refused connections are mentioned while they go on. */
const REFUSAL_LOG_WINDOW_MS = 10_000;

/**
 * Logs connections refused at a cap: the first at once, the rest counted and said in one line per
 * window, so that a flood of connections cannot flood the log too.
 */
function refusalLog(logger: Logger): (setting: string, client: string | undefined, limit: number) => void {
  let windowEnds = 0;
  let unsaid = new Map<string, number>();
  let flushing = false;
  const sayUnsaid = () => {
    flushing = false;
    for (const [setting, count] of unsaid) logger.warn({ setting, refused: count }, 'connections refused: limit reached');
    unsaid = new Map();
  };
  return (setting, client, limit) => {
    const now = Date.now();
    if (now >= windowEnds) {
      windowEnds = now + REFUSAL_LOG_WINDOW_MS;
      logger.warn({ setting, limit, client, refused: 1 }, 'connection refused: limit reached');
      return;
    }
    unsaid.set(setting, (unsaid.get(setting) ?? 0) + 1);
    if (!flushing) {
      flushing = true;
      setTimeout(sayUnsaid, windowEnds - now).unref();
    }
  };
}

/** A JSON error written straight to the socket, with the headers every answer carries; the connection closes after it. */
function writeRawError(socket: Duplex, status: number, message: string, requestId: string): void {
  const body = errorBody(message);
  const headers = withEveryAnswerHeaders({ 'Content-Type': JSON_TYPE, 'Content-Length': String(Buffer.byteLength(body)), 'Cache-Control': 'no-store', Connection: 'close' }, requestId);
  socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`);
}
