// The open connections of a node:http server and, for each, the responses queued behind the one
// Node is writing on it (currentResponse), which a client that pipelines has asked for before
// reading the answers ahead. Graceful stop reads them (graceful.ts), and they bound pipelining:
// every answer waiting behind one the client has not read is memory held for a client that may
// never read it, and one packet can carry hundreds of pipelined requests (a 40-byte GET for a
// document of kilobytes). A connection with too many waiting is not read further until its answers
// go out: every request sent is answered, in order, and a client that never reads its answers is
// closed by the idle timeout (http-server.ts). A request with nothing ahead of it, nearly every
// one, is not tracked: it is its connection's current response.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Requests a connection may have waiting for their answers before it is no longer read; clients
 * hardly ever pipeline at all. What one read holds beyond it is answered too.
 */
export const MAX_IN_FLIGHT_PER_CONNECTION = 32;

export type Connections = ReadonlyMap<Socket, ReadonlySet<ServerResponse>>;

/** The fields of Node's HTTP server on a connection's socket that pause its reading (see connectionsOf). */
type ThrottledSocket = Socket & { _paused?: boolean; parser?: { resume(): void } | null };

/**
 * The response Node's HTTP server is writing on a connection, if any: that of the first request on
 * it not yet answered in full. Node's own field, which its handling of client errors reads too; it
 * is null once an answer has gone and none has followed, undefined before any request.
 */
export function currentResponse(socket: Socket | Duplex): ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

const tracked = new WeakMap<Server, Connections>();

/**
 * The server's connections, tracked from the first call on (make it right after creating the
 * server), each with the responses queued behind its current one. A connection that has
 * MAX_IN_FLIGHT_PER_CONNECTION requests waiting, its current one included, is paused (its socket
 * not read) until fewer wait.
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
  // Node reads a connection's requests in its HTTP parser, straight from the socket's handle, and
  // has its own switch to stop: the socket's `_paused` flag, which pauses the parser as soon as the
  // packet being parsed is done, and which it turns off again when the output drains. The same
  // switch is used here, turned on again by each request over the limit.
  const throttled = new WeakSet<Socket>();
  // One listener for every response (a response closes once): nothing is made per request.
  function untrack(this: ServerResponse) {
    const socket = this.req.socket as ThrottledSocket;
    const inFlight = connections.get(socket);
    if (inFlight === undefined) return;
    inFlight.delete(this);
    if (inFlight.size + 1 < MAX_IN_FLIGHT_PER_CONNECTION && throttled.delete(socket) && socket._paused) {
      socket._paused = false;
      socket.parser?.resume();
      socket.resume();
    }
  }
  const track = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as ThrottledSocket;
    // Nothing ahead of it: Node has given it the socket, and it goes when its answer has.
    if (currentResponse(socket) === res) return;
    const inFlight = connections.get(socket);
    if (inFlight === undefined) return;
    inFlight.add(res);
    res.on('close', untrack);
    if (inFlight.size + 1 >= MAX_IN_FLIGHT_PER_CONNECTION) {
      throttled.add(socket);
      if (!socket._paused) {
        socket._paused = true;
        socket.pause();
      }
    }
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
export function capConnectionsPerClient(server: Server, max: number, onRefused: (address: string) => void = () => {}): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      onRefused(address);
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
