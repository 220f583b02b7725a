// HTTP/1.1 spoken by hand over a TCP socket: for what fetch will not send (malformed requests,
// half-sent headers, stalled bodies) and for seeing exactly what the server writes back.

import { request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RawReply {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  socket: Socket;
  /** Everything the server has written so far. */
  received(): string;
  /** Resolves when the server closes the connection (or it is reset). */
  closed: Promise<void>;
  write(data: string): void;
}

/** Opens a connection to `url`'s host and port and writes `data` (if any), leaving it open. */
export async function openRaw(url: string, data = ''): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', () => {}); // a reset is one way for the server to close
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (data) socket.write(data);
  return { socket, received: () => text, closed, write: (more) => socket.write(more) };
}

/** Writes `data`, waits (at most `guardMs`) for the server to close the connection, and parses the first answer. */
export async function exchangeRaw(url: string, data: string, guardMs = 15_000): Promise<RawReply> {
  const connection = await openRaw(url, data);
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`server still holding the connection after ${guardMs} ms; got: ${connection.received().slice(0, 200)}`)), guardMs);
  });
  try {
    await Promise.race([connection.closed, guard]);
  } finally {
    clearTimeout(timer);
    connection.socket.destroy();
  }
  return parseReply(connection.received());
}

/** The first response in `text` (status line, headers, a Content-Length body). */
export function parseReply(text: string): RawReply {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  return { status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(text.slice(end + 4), 'latin1').subarray(0, length).toString('utf8') };
}

/** Headers announcing a 60 KB upload, and its first kilobyte: the rest never comes. */
export const halfUpload = (path: string, headers = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 61440\r\n${headers}\r\n{"zips":["${'1'.repeat(1000)}`;

const BATCH_BODY = '{"zips":["60601","10001"]}';

/** Opens a batch request of two ZIPs and sends only its first bytes: the server has it in flight until `finish`. */
export function partialRequest(url: string, key: string) {
  const req = request(`${url}/api/locations/batch`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(BATCH_BODY) },
  });
  const response = new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  req.write(BATCH_BODY.slice(0, 5));
  return { response, finish: () => req.end(BATCH_BODY.slice(5)) };
}
