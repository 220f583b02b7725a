// What every HTML page the service serves carries (/docs, and any page added beside it): a strict
// Content-Security-Policy (scripts and styles from the service itself, no inline script, no
// framing), and no Referer leaking the page's URL (which may hold query parameters) elsewhere.

import type { HttpResponse } from './request.js';

/**
 * The policy's directives. A page that needs more (inline styles, a tile server's images) asks for
 * it by directive (htmlPage, htmlSecurityHeaders) rather than loosening them for every page.
 */
const CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
};

export function contentSecurityPolicy(extra: Readonly<Record<string, string>> = {}): string {
  return Object.entries({ ...CSP_DIRECTIVES, ...extra })
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/** The security headers of an HTML answer. */
export function htmlSecurityHeaders(csp: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(csp),
    'Referrer-Policy': 'no-referrer',
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'DENY',
  };
}

/** An HTML page, cacheable for `maxAgeSeconds`, with the security headers. */
export function htmlPage(body: string, maxAgeSeconds: number, csp: Readonly<Record<string, string>> = {}): HttpResponse {
  return {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': `public, max-age=${maxAgeSeconds}`, ...htmlSecurityHeaders(csp) },
    body,
  };
}
