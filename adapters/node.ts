// The API on plain node:http, for where throughput matters most: Express's own request handling
// costs more than the lookups themselves.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { App } from './http/app.js';
import { createHttpServer } from './http-server.js';
import { parseQueryString, splitTarget } from './http/request.js';
import { hasBody, readBody, writeResponse } from './node-io.js';

export function createNodeHandler(core: App): (req: IncomingMessage, res: ServerResponse) => void {
  const answer = async (req: IncomingMessage, res: ServerResponse, body: string | undefined) => {
    const { path, search } = splitTarget(req.url ?? '/');
    const response = await core.handle({
      method: req.method ?? 'GET',
      path,
      query: parseQueryString(search),
      // node:http lower-cases names and joins repeated headers, except set-cookie, which no client sends.
      headers: req.headers as Record<string, string | undefined>,
      body,
    });
    writeResponse(res, response);
  };
  return (req, res) => {
    // Most requests are bodiless GETs: answer them without waiting on the stream.
    // The core answers every error itself; a failure here means the socket is gone or unusable.
    const drop = () => res.destroy();
    if (!hasBody(req)) {
      answer(req, res, undefined).catch(drop);
      return;
    }
    // A failed read is a client that went away mid-upload: nobody is left to answer.
    readBody(req).then((body) => answer(req, res, body), drop).catch(drop);
  };
}

/** With the default limits (`startServer` applies the configured ones). */
export function createNodeServer(core: App): Server {
  return createHttpServer(createNodeHandler(core));
}
