// The API on plain node:http, for where throughput matters most: Express's own request handling
// costs more than the lookups themselves.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { App } from './http/app.js';
import { parseQueryString, splitTarget } from './http/request.js';
import { readBody, writeResponse } from './node-io.js';

export function createNodeHandler(core: App): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    readBody(req).then(
      async (body) => {
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
      },
      // The client went away mid-upload: nobody is left to answer.
      () => res.destroy(),
    );
  };
}

export function createNodeServer(core: App): Server {
  return createServer(createNodeHandler(core));
}
