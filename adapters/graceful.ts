// Graceful stop for a node:http server: no new connections, idle and silent ones closed at once,
// requests in flight finish (their keep-alive connections close after the answer), and whatever is still open
// at the deadline is closed. The deadline is needed: `server.close()` stops Node's headers and
// request timeout checks, so a half-sent request would otherwise hold the server open forever.

import type { Server, ServerResponse } from 'node:http';
import { connectionsOf } from './connections.js';

/** Call once, right after creating the server; the returned function stops it within `deadlineMs`. */
export function gracefulStop(server: Server, deadlineMs: number): () => Promise<void> {
  const connections = connectionsOf(server);
  let stopping: Promise<void> | undefined;
  // A request that arrives on an open keep-alive connection during the stop is still answered.
  const closeAfterAnswer = (_req: unknown, res: ServerResponse) => {
    if (stopping && !res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', closeAfterAnswer);
  server.on('checkContinue', closeAfterAnswer);
  return () =>
    (stopping ??= new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
      server.close((err) => {
        clearTimeout(deadline);
        if (err) reject(err);
        else resolve();
      });
      server.closeIdleConnections();
      for (const [socket, inFlight] of connections) {
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        // Node counts a connection that has sent nothing yet (a balancer's pre-opened one, a TCP
        // health check) as busy, not idle: it holds no request, so it is closed now too.
        if (socket.bytesRead === 0) socket.destroy();
      }
    }));
}
