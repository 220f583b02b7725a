// A server for bench/http.ts, run as its own process so the load generator does not share its
// event loop: `node --import tsx bench/http-server.ts <kind> [static-body-file]`, prints its port.
//
//   express          the API through createExpressApp, in the server `npm start` runs it in
//                    (createHttpServer: timeouts, connection cap, Host check)
//   express-static   Express answering every request with the same precomputed body, in that server,
//                    written as the API writes its answers (as node-written below): the ceiling
//                    then differs from the API by the core's work alone
//   node             the API through the plain node:http adapter
//   node-static      bare node:http answering with the same precomputed body
//   node-written     node:http writing that body as the API writes its answers: the headers of a
//                    real answer of the core, Content-Length, latin1 (what writing costs, apart)

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createEngine } from '../engine/index.js';
import { createExpressApp } from '../adapters/express.js';
import { createApp } from '../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../adapters/http/keys.js';
import { MemoryKvStore } from '../adapters/kv/memory.js';
import { createHttpServer } from '../adapters/http-server.js';
import { createNodeServer } from '../adapters/node.js';
import { writeResponse } from '../adapters/node-io.js';

export const BENCH_KEY = 'bench-key';

const [kind, bodyFile] = process.argv.slice(2);

function api() {
  return createApp({ engine: createEngine(), keys: new KeyRing(parseApiKeys(`${BENCH_KEY}:enterprise`)), kv: new MemoryKvStore() });
}

function staticBody(): string {
  if (!bodyFile) throw new Error('the static servers need the body file');
  return readFileSync(bodyFile, 'utf8');
}

/** The headers of the core's real answer to the query the body answers. */
async function answerHeaders(body: string): Promise<Record<string, string>> {
  const query = { zip: JSON.parse(body).query.zip };
  const { headers } = await api().serve({ method: 'GET', path: '/api/locations', query, headers: { 'x-api-key': BENCH_KEY } }, async () => undefined);
  return headers;
}

async function server(): Promise<Server> {
  switch (kind) {
    case 'express':
      return createHttpServer(createExpressApp(api()));
    case 'node':
      return createNodeServer(api());
    case 'express-static': {
      const body = staticBody();
      const headers = await answerHeaders(body);
      const app = express();
      app.disable('x-powered-by');
      app.set('etag', false);
      app.get('/api/locations', (_req, res) => writeResponse(res, { status: 200, headers: { ...headers }, body }));
      return createHttpServer(app);
    }
    case 'node-static': {
      const body = staticBody();
      return createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body);
      });
    }
    case 'node-written': {
      const body = staticBody();
      const headers = await answerHeaders(body);
      return createServer((_req, res) => writeResponse(res, { status: 200, headers: { ...headers }, body }));
    }
    default:
      throw new Error(`unknown server kind "${kind}"`);
  }
}

const s = await server();
s.listen(0, '127.0.0.1', () => console.log(`listening ${(s.address() as AddressInfo).port}`));
