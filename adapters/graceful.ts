// Graceful stop for a node:http server: no new connections; requests in flight finish (their
// keep-alive connections close after the answer); idle and silent connections close after a short
// grace, in which a request already on its way is still answered; whatever is still open at the
// deadline is closed. The deadline is needed: a half-sent request would otherwise hold the server
// open forever.

import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { connectionsOf, currentResponse } from './connections.js';

/**
 * How long a connection idle when the stop begins stays open. A client of a keep-alive connection
 * sends its next request whenever it likes: one that is on its way, or already waiting in the
 * socket's buffer unread, would be reset by closing the connection at once, and every busy
 * connection of a loaded server has one. Within the grace it is answered, with `Connection: close`.
 */
const IDLE_GRACE_MS = 250;

export interface StopOptions {
  /**
   * Leaves idle keep-alive connections to close at their keep-alive timeout, which clients are told
   * of (`Keep-Alive: timeout=`) and so stop reusing a connection before: a client sending its next
   * request just as the server closes the connection gets no answer. For a cluster worker replaced
   * on reload, whose clients keep calling the others; a stop of the whole service closes them sooner.
   */
  keepIdle?: boolean | undefined;
}

/** Call once, right after creating the server; the returned function stops it within `deadlineMs`. */
export function gracefulStop(server: Server, deadlineMs: number): (options?: StopOptions) => Promise<void> {
  const connections = connectionsOf(server);
  let stopping: Promise<void> | undefined;
  // A request that arrives on an open keep-alive connection during the stop is still answered.
  // Ahead of the server's own listener, which may answer before it returns; listened for once the
  // stop begins, so that no request before it pays a call.
  const closeAfterAnswer = (_req: unknown, res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  return ({ keepIdle = false } = {}) =>
    (stopping ??= new Promise<void>((resolve, reject) => {
      server.prependListener('request', closeAfterAnswer);
      server.prependListener('checkContinue', closeAfterAnswer);
      const deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
      const grace = setTimeout(() => {
        if (keepIdle) return;
        server.closeIdleConnections();
        // Node counts a connection that has sent nothing (a balancer's pre-opened one, a TCP
        // health check) as busy, not idle: it holds no request, so it is closed too.
        for (const socket of connections.keys()) if (socket.bytesRead === 0) socket.destroy();
      }, Math.min(IDLE_GRACE_MS, deadlineMs));
      // net.Server's close stops new connections; http.Server's would also close the idle ones at
      // once (Node 19 on), resetting the requests that have just arrived on them.
      NetServer.prototype.close.call(server, (err?: Error) => {
        clearTimeout(deadline);
        clearTimeout(grace);
        if (err) reject(err);
        else resolve();
      });
      for (const [socket, queued] of connections) {
        const current = currentResponse(socket);
        if (current && !current.headersSent) current.setHeader('Connection', 'close');
        for (const res of queued) if (!res.headersSent) res.setHeader('Connection', 'close');
      }
    }));
}
