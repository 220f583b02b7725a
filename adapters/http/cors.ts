// Cross-origin calls from browser pages (CORS_ORIGINS): preflights are answered before the route,
// key and quota (a browser sends them without the key, and they cost nothing), and answers to a
// listed origin say it may read them, rate-limit headers included. Unlisted origins get no CORS
// headers at all: the browser then keeps the answer from the page.

import { addVary, type HttpRequest, type HttpResponse } from './request.js';

/** What CORS reads of a request. */
type RequestHead = Pick<HttpRequest, 'method' | 'headers'>;

/** How long a browser may reuse a preflight's answer, in seconds (Chromium caps it at 7200). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Request headers a page may send: the key, a JSON body's type, and a request id to trace by. */
const ALLOWED_HEADERS = 'X-API-Key, Content-Type, X-Request-Id';
const ALLOWED_METHODS = 'GET, HEAD, POST';
/** Response headers a page may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id';

export interface Cors {
  /** Whether the request is a browser's preflight (OPTIONS with Origin and Access-Control-Request-Method). */
  isPreflight(req: RequestHead): boolean;
  /** The 204 answer to a preflight: CORS headers only for a listed origin (decorate adds its Vary). */
  preflight(req: RequestHead, requestId: string): HttpResponse;
  /** Adds the CORS headers an answer to this request carries, a preflight's included. */
  decorate(req: RequestHead, headers: Record<string, string>): void;
}

export function createCors(origins: '*' | readonly string[] = []): Cors {
  const any = origins === '*';
  const listed = new Set(any ? [] : origins);
  const configured = any || listed.size > 0;
  const allowedOrigin = (origin: string | undefined): string | undefined =>
    origin === undefined || !configured ? undefined : any ? '*' : listed.has(origin) ? origin : undefined;
  const vary = (headers: Record<string, string>) => {
    // With a list, the answer depends on the Origin: a shared cache must keep them apart.
    if (configured && !any) addVary(headers, 'Origin');
  };
  return {
    isPreflight: (req) => req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined,
    preflight(req, requestId) {
      const headers: Record<string, string> = { 'X-Request-Id': requestId };
      const origin = allowedOrigin(req.headers.origin);
      if (origin !== undefined) {
        headers['Access-Control-Allow-Origin'] = origin;
        headers['Access-Control-Allow-Methods'] = ALLOWED_METHODS;
        headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS;
        headers['Access-Control-Max-Age'] = String(PREFLIGHT_MAX_AGE_SECONDS);
      }
      return { status: 204, headers, body: '' };
    },
    decorate(req, headers) {
      if (!configured) return;
      const origin = allowedOrigin(req.headers.origin);
      if (origin !== undefined) {
        headers['Access-Control-Allow-Origin'] = origin;
        headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
      }
      vary(headers);
    },
  };
}
