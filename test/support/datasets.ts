// Tiny datasets of one carrier, and their compiled snapshots: which one a server loaded shows in
// the carrier ids it answers with.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSnapshot } from '../../engine/index.js';

/** Writes a dataset of one LTL carrier with one Chicago terminal into `dir`/`id`, and returns that directory. */
export function writeOneCarrierDataset(dir: string, id: string): string {
  const dataDir = join(dir, id);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    join(dataDir, 'carriers.json'),
    JSON.stringify([{ id, name: `${id} Freight`, scac: id.slice(0, 4).toUpperCase(), kind: 'ltl', unified: true, canReach: true, lookup: 'zip' }]),
  );
  writeFileSync(
    join(dataDir, 'terminals.csv'),
    [
      'carrier,terminalCode,name,line1,line2,city,state,zipCode,country,phone,fax,email,latitude,longitude,region',
      `${id},A1,${id} Chicago,1 Dock St,,Chicago,IL,60601,US,312-555-0100,,a1@${id}.example,41.8858,-87.6181,`,
    ].join('\n'),
  );
  return dataDir;
}

/** The dataset above compiled to `dir`/`id`.snapshot; returns the file. */
export function buildOneCarrierSnapshot(dir: string, id: string): string {
  const file = join(dir, `${id}.snapshot`);
  buildSnapshot(file, { dataDir: writeOneCarrierDataset(dir, id) });
  return file;
}
