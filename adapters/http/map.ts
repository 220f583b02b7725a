// /map: the page that draws searches and carrier networks, with its assets built into dist/map/
// (`npm run build`) from npm packages. Everything it loads comes from this server, unless the
// operator names a tile server (MAP_TILES_URL); its Content-Security-Policy says exactly that.
// Like /docs, its URLs are relative, so it works where the API is mounted under a prefix.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { besideCode, MAP_ASSETS_DIR } from '../../engine/package-files.js';
import { errorResponse } from './errors.js';
import { htmlSecurityHeaders } from './html.js';
import { sharedBody, type HttpResponse, type SharedBody } from './request.js';

export interface MapOptions {
  /** A tile URL template (`https://tiles.example.com/{z}/{x}/{y}.png`) drawn instead of the shipped basemap. */
  tilesUrl?: string | undefined;
  /** The credit the tile server asks for. */
  tilesAttribution?: string | undefined;
  /** Where the built assets are; default dist/map of the package. */
  assetsDir?: string | undefined;
}

const ASSETS: Record<string, string> = {
  'map.js': 'text/javascript; charset=utf-8',
  'map.css': 'text/css; charset=utf-8',
  'states.json': 'application/json; charset=utf-8',
  'countries.json': 'application/json; charset=utf-8',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The scheme and host of a tile template, `{s}` subdomains as a CSP wildcard. */
export function tilesOrigin(template: string): string {
  return /^https?:\/\/[^/?#]+/.exec(template.replace('{s}', '*'))?.[0] ?? '';
}

/** The HTML pages' policy (html.ts), with the tile server's images when one is named. */
function cspDirectives(tilesUrl: string | undefined): Record<string, string> {
  return tilesUrl ? { 'img-src': `'self' data: ${tilesOrigin(tilesUrl)}` } : {};
}

function page(assets: string, api: string, options: MapOptions): string {
  const tiles = options.tilesUrl ? ` data-tiles="${escapeHtml(options.tilesUrl)}" data-tiles-attribution="${escapeHtml(options.tilesAttribution ?? '')}"` : '';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Carrier locations map</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${assets}map.css">
    <script src="${assets}map.js" defer></script>
  </head>
  <body data-api="${api}" data-assets="${assets}"${tiles}>
    <header><h1>Carrier locations map</h1></header>
    <main class="layout">
      <section class="controls" aria-label="Search">
        <form id="search-form">
          <label class="wide" for="key">API key <input id="key" type="password" autocomplete="off" spellcheck="false" required></label>
          <p class="hint">Kept in this tab only (sessionStorage), never in the address.</p>
          <label for="zip">ZIP <input id="zip" name="zip" inputmode="numeric" maxlength="5" placeholder="75201"></label>
          <label for="radius">Radius (miles) <input id="radius" name="radius" type="number" min="1" max="100" step="any" value="25"></label>
          <label for="city">City <input id="city" name="city" placeholder="st louis"></label>
          <label for="state">State <input id="state" name="state" maxlength="2" placeholder="MO"></label>
          <label class="wide" for="carriers">Carriers <input id="carriers" name="carriers" placeholder="ids, comma-separated (all when empty)"></label>
          <button class="wide" type="submit">Search</button>
        </form>
        <form id="network-form">
          <label class="wide" for="network">Carrier network <select id="network"><option value="">Choose a carrier</option></select></label>
          <button class="wide" type="submit">Show the network</button>
        </form>
        <p id="status" role="status" aria-live="polite"></p>
        <p id="error" role="alert" hidden></p>
        <ul id="legend" aria-label="Carriers"></ul>
      </section>
      <div id="map" aria-label="Map of the results"></div>
      <section class="list" aria-label="Results">
        <ol id="results"></ol>
      </section>
    </main>
  </body>
</html>
`;
}

/** The headers every answer of the page carries: nothing loads from elsewhere, nothing frames it, no referrer leaves. */
function pageHeaders(type: string, csp: Record<string, string>, maxAge: number): Record<string, string> {
  return { 'Content-Type': type, 'Cache-Control': `public, max-age=${maxAge}`, 'X-Content-Type-Options': 'nosniff', ...htmlSecurityHeaders(csp) };
}

/** Beside the Lambda bundle when it carries a copy, else the package's dist/map. */
export function mapAssetsDir(): string {
  const beside = besideCode('./map/');
  return existsSync(join(beside, 'map.js')) ? beside : MAP_ASSETS_DIR;
}

/** Answers `/map`, `/map/` and `/map/<asset>` (one trailing slash ignored); null for any other path. */
export function createMapPage(options: MapOptions = {}): (path: string) => HttpResponse | null {
  const dir = options.assetsDir ?? mapAssetsDir();
  const csp = cspDirectives(options.tilesUrl);
  const files = new Map<string, SharedBody>();
  return (path) => {
    if (path !== '/map' && !path.startsWith('/map/')) return null;
    if (!existsSync(join(dir, 'map.js'))) {
      return errorResponse(404, 'the map page is not installed beside this code: its assets are dist/map of the package, made by `npm run build`');
    }
    // From `/map` relative URLs resolve beside it, from `/map/` inside it.
    if (path === '/map') return { status: 200, headers: pageHeaders('text/html; charset=utf-8', csp, 300), body: page('map/', 'api/', options) };
    if (path === '/map/') return { status: 200, headers: pageHeaders('text/html; charset=utf-8', csp, 300), body: page('./', '../api/', options) };
    // One trailing slash ignored, as on every path of the API and the docs page's assets.
    const name = path.slice('/map/'.length).replace(/\/$/, '');
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) return null;
    let file = files.get(name);
    if (file === undefined) {
      file = sharedBody(readFileSync(join(dir, name), 'utf8'));
      files.set(name, file);
    }
    return { status: 200, headers: pageHeaders(type, csp, 3600), ...file };
  };
}
