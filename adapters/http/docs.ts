// /docs: Swagger UI rendering /openapi.json, its assets served from the swagger-ui-dist package
// (or from the copy the Lambda bundle carries), so the page needs no CDN. All URLs in the page are
// relative, so it keeps working when the API is mounted under a prefix (`app.use('/carriers', ...)`).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { besideCode, packageRequire } from '../../engine/package-files.js';
import { errorResponse } from './errors.js';
import { htmlPage } from './html.js';
import { sharedBody, type HttpResponse, type SharedBody } from './request.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/** Reads the spec URL from the page, so the script itself needs no inline code or templating. */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({ url: root.getAttribute('data-spec'), domNode: root, deepLinking: true });
});
`;

/** Swagger UI sets style attributes as it renders (no style can run code), and draws icons from data: URIs. */
const SWAGGER_UI_CSP = { 'style-src': "'self' 'unsafe-inline'", 'font-src': "'self' data:" };

function page(prefix: string, specUrl: string): string {
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Carrier Location Lookup API</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${prefix}swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui" data-spec="${specUrl}"></div>
    <script src="${prefix}swagger-ui-bundle.js"></script>
    <script src="${prefix}init.js"></script>
  </body>
</html>
`;
}

/** Beside the Lambda bundle when it carries a copy, else the installed package. */
export function swaggerUiDir(): string | null {
  const beside = besideCode('./swagger-ui/');
  if (existsSync(join(beside, 'swagger-ui-bundle.js'))) return beside;
  try {
    return dirname(packageRequire.resolve('swagger-ui-dist/package.json'));
  } catch {
    return null;
  }
}

export const DOCS_ASSETS = Object.keys(ASSETS);

const notInstalled = (): HttpResponse =>
  errorResponse(404, 'the docs page needs the swagger-ui-dist package (npm install swagger-ui-dist); the OpenAPI document is served beside /docs, as openapi.json');

/**
 * Answers `/docs`, `/docs/` and `/docs/<asset>` (one trailing slash ignored); null for any other path.
 * The assets go gzipped to a client that takes it, as every large answer does (compression.ts): the
 * script is 1.7 MB as text and about 0.5 MB compressed, which also keeps it under the 1 MB a load
 * balancer takes from a Lambda.
 */
export function createDocs(dir: string | null = swaggerUiDir()): (path: string) => HttpResponse | null {
  // swagger-ui-dist is an optional peer of the package: without it, say so rather than serve a page
  // whose script and styles are missing.
  if (!dir) return (path) => (path === '/docs' || path.startsWith('/docs/') ? notInstalled() : null);
  // Read once per process on first request, as text (Lambda's answer) and bytes (a server's).
  const texts = new Map<string, SharedBody>();
  const ok = (type: string, body: string, maxAge: number): HttpResponse => ({
    status: 200,
    headers: { 'Content-Type': type, 'Cache-Control': `public, max-age=${maxAge}` },
    body,
  });
  return (path) => {
    // From `/docs` relative URLs resolve beside it, from `/docs/` inside it.
    if (path === '/docs') return htmlPage(page('docs/', 'openapi.json'), 300, SWAGGER_UI_CSP);
    if (path === '/docs/') return htmlPage(page('./', '../openapi.json'), 300, SWAGGER_UI_CSP);
    if (!path.startsWith('/docs/')) return null;
    const name = path.slice('/docs/'.length).replace(/\/$/, '');
    if (name === 'init.js') return ok('text/javascript; charset=utf-8', INIT_SCRIPT, 300);
    // Own properties only: `constructor` or `__proto__` are names of Object.prototype, not assets.
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) return null;
    let text = texts.get(name);
    if (text === undefined) {
      text = sharedBody(readFileSync(join(dir, name), 'utf8'));
      texts.set(name, text);
    }
    return { ...ok(type, text.body, 86_400), bytes: text.bytes };
  };
}
