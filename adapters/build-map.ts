// Part of `npm run build`: the /map page's assets in dist/map/, made from npm packages so the page
// loads nothing from anywhere but the server. The page script and Leaflet are bundled into one
// file, the styles into another (Leaflet's images inlined), and the basemap is the us-atlas and
// world-atlas TopoJSON, states and countries labelled with the codes the API uses (USPS, ISO 3166-1
// alpha-2) so a carrier's states and countries can be shaded.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import countries from 'i18n-iso-countries';
import { states } from 'states-us';
import { MAP_ASSETS_DIR, packageRequire } from '../engine/package-files.js';

/** The files the page loads, as the server names them. */
export const MAP_ASSET_FILES = ['map.js', 'map.css', 'states.json', 'countries.json'] as const;

interface Topology {
  objects: Record<string, { geometries: { properties?: Record<string, unknown> }[] }>;
}

const readJson = (specifier: string) => JSON.parse(readFileSync(packageRequire.resolve(specifier), 'utf8'));

/** `District of Columbia` and `District Of Columbia`, `United States Virgin Islands` and `Virgin Islands` are one name. */
const plainName = (name: string) => name.toLowerCase().replace(/^(commonwealth of the|united states) /, '');

/** us-atlas names its states; the API speaks of them by postal code. */
function statesWithCodes(): Topology {
  const topology: Topology = readJson('us-atlas/states-10m.json');
  const codes = new Map(states.map((s) => [plainName(s.name), s.abbreviation]));
  for (const geometry of topology.objects.states.geometries) {
    const name = String(geometry.properties?.name);
    geometry.properties = { name, code: codes.get(plainName(name)) ?? '' };
  }
  return topology;
}

/** world-atlas numbers its countries (ISO 3166-1 numeric); the API names them by alpha-2 code. */
function countriesWithCodes(): Topology {
  const topology: Topology = readJson('world-atlas/countries-110m.json');
  for (const geometry of topology.objects.countries.geometries as { id?: string; properties?: Record<string, unknown> }[]) {
    geometry.properties = { name: geometry.properties?.name, code: (geometry.id && countries.numericToAlpha2(geometry.id)) || '' };
  }
  return topology;
}

export async function buildMapAssets(outDir = MAP_ASSETS_DIR): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const source = join(MAP_ASSETS_DIR, '..', '..', 'web', 'map');
  await build({
    entryPoints: [
      { in: join(source, 'map.ts'), out: 'map' },
      { in: join(source, 'map.css'), out: 'map' },
    ],
    outdir: outDir,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    loader: { '.png': 'dataurl', '.svg': 'dataurl' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  writeFileSync(join(outDir, 'states.json'), JSON.stringify(statesWithCodes()));
  writeFileSync(join(outDir, 'countries.json'), JSON.stringify(countriesWithCodes()));
  return MAP_ASSET_FILES.map((name) => join(outDir, name));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildMapAssets();
}
