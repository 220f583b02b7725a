// The API in Express 5: a standalone app, or a router to mount inside an existing app
// (`app.use('/carriers', createRouter(core))`: paths are relative to the mount point).

import express, { Router, type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import type { App } from './http/app.js';
import { bodyText } from './http/body.js';
import { errorBody } from './http/errors.js';
import { parseQueryString, requestIdFor, splitTarget, withEveryAnswerHeaders } from './http/request.js';
import { bodySource, type BodySource, writeResponse } from './node-io.js';

/**
 * Answers the API's routes and passes everything else on with `next()`, so the host app's own
 * routes and 404 handling keep working when it is mounted at the root.
 */
export function createRouter(core: App): Router {
  const router = Router();
  router.use((req, res, next) => {
    if (!core.matches(req.method, splitTarget(req.url).path)) return next();
    serve(core, req, res, next);
  });
  return router;
}

/**
 * A standalone app: the core answers every request (its routes, and its JSON 404 for anything
 * else, matched once), and never an HTML error page.
 */
export function createExpressApp(core: App): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // hashing every body costs throughput, and no client revalidates lookups
  app.use((req, res, next) => {
    serve(core, req, res, next);
  });
  app.use(jsonErrors);
  return app;
}

/**
 * Hands the request to the core and writes its answer: at once when the core answers without
 * waiting (a keyed GET on an in-process store), as the node:http adapter does, else when its
 * promise settles. A failure of the adapter itself goes to Express's error handling.
 */
function serve(core: App, req: Request, res: Response, next: NextFunction): void {
  // The target as the node:http adapter splits it, not Express's req.path, which drops a `#...`
  // (`/api/locations#x?zip=60601` would be answered here and be a 404 there).
  const { path, search } = splitTarget(req.url);
  const body = bodyOf(req, res);
  const head = {
    method: req.method,
    path,
    query: parseQueryString(search),
    // node:http lower-cases names and joins repeated headers, except set-cookie, which no client sends.
    headers: req.headers as Record<string, string | undefined>,
    client: req.socket.remoteAddress,
  };
  try {
    const answered = core.answer(head, body.read);
    if (answered instanceof Promise) answered.then((response) => writeResponse(res, response, body)).catch(next);
    else writeResponse(res, answered, body);
  } catch (err) {
    next(err);
  }
}

/** A host app may already have consumed the body with its own parser (express.json() and the like). */
function bodyOf(req: Request, res: Response): BodySource {
  const parsed: unknown = req.body;
  if (parsed === undefined || req.readableEnded === false) return bodySource(req, res);
  return {
    read: async () => (typeof parsed === 'string' ? parsed : Buffer.isBuffer(parsed) ? bodyText(parsed) : JSON.stringify(parsed)),
    unread: () => false,
  };
}

/** Failures of the adapter itself: a JSON 500 instead of Express's HTML page, with the headers every answer carries. */
const jsonErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const headers = withEveryAnswerHeaders({}, requestIdFor(req.headers['x-request-id'] as string | undefined));
  res.status(500).type('application/json').set(headers).send(errorBody('internal error'));
};
