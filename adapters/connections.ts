// The open connections of a node:http server and, for each, the responses still to be sent. Graceful
// stop reads them (graceful.ts), and they bound pipelining: every answer waiting behind one the
// client has not read is memory held for a client that may never read it, and one packet can carry
// hundreds of pipelined requests (a 40-byte GET for a document of kilobytes).

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Requests a connection may have waiting for their answers; clients hardly ever pipeline at all. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 32;

export type Connections = ReadonlyMap<Socket, ReadonlySet<ServerResponse>>;

const tracked = new WeakMap<Server, Connections>();

/**
 * The server's connections, tracked from the first call on (make it right after creating the
 * server). A connection that has more than MAX_IN_FLIGHT_PER_CONNECTION requests waiting is closed,
 * before the one over the limit is answered.
 */
export function connectionsOf(server: Server): Connections {
  const known = tracked.get(server);
  if (known !== undefined) return known;
  const connections = new Map<Socket, Set<ServerResponse>>();
  tracked.set(server, connections);
  server.on('connection', (socket: Socket) => {
    connections.set(socket, new Set());
    // Answers queued behind one the client never read get no 'close' of their own: they go with
    // their connection.
    socket.once('close', () => connections.delete(socket));
  });
  // One listener for every response (a response closes once): nothing is made per request.
  function untrack(this: ServerResponse) {
    connections.get(this.req.socket as Socket)?.delete(this);
  }
  const track = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as Socket;
    const inFlight = connections.get(socket);
    if (inFlight === undefined) return;
    if (inFlight.size >= MAX_IN_FLIGHT_PER_CONNECTION) {
      socket.destroy();
      return;
    }
    inFlight.add(res);
    res.on('close', untrack);
  };
  // Ahead of the server's own listener, so a request over the limit is never answered.
  server.prependListener('request', track);
  server.prependListener('checkContinue', track);
  return connections;
}

/**
 * Closes, as they arrive, connections from an address that already has `max` open: one client
 * cannot take every connection the server has (MAX_CONNECTIONS) by opening them and sending slowly.
 */
export function capConnectionsPerClient(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
