// Graceful stop for a node:http server: no new connections, requests in flight finish, and their
// keep-alive connections are closed after the answer instead of idling until their timeout.

import type { Server, ServerResponse } from 'node:http';

/** Call once, right after creating the server; the returned function stops it. */
export function gracefulStop(server: Server): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let stopping: Promise<void> | undefined;
  server.on('request', (_req, res: ServerResponse) => {
    // A request that arrives on an open keep-alive connection during the stop is still answered.
    if (stopping) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
  });
  return () =>
    (stopping ??= new Promise<void>((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
    }));
}
