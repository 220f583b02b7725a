// The API on plain node:http, for where throughput matters most: Express's own request handling
// costs more than the lookups themselves.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { App } from './http/app.js';
import { createHttpServer } from './http-server.js';
import { parseQueryString, splitTarget } from './http/request.js';
import { bodySource, writeResponse } from './node-io.js';

export function createNodeHandler(core: App): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const { path, search } = splitTarget(req.url ?? '/');
    const body = bodySource(req, res);
    // node:http lower-cases names and joins repeated headers, except set-cookie, which no client sends.
    const head = { method: req.method ?? 'GET', path, query: parseQueryString(search), headers: req.headers as Record<string, string | undefined>, client: req.socket.remoteAddress };
    // A keyed GET on an in-process store is answered at once, written before this returns.
    const answered = core.answer(head, body.read);
    if (!(answered instanceof Promise)) return writeResponse(res, answered, body);
    // The core answers every error itself; a failure here means the socket is gone or unusable.
    answered.then((response) => writeResponse(res, response, body), () => res.destroy());
  };
}

/** With the default limits (`startServer` applies the configured ones). */
export function createNodeServer(core: App): Server {
  return createHttpServer(createNodeHandler(core));
}
