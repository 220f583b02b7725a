// Tiny datasets and their compiled snapshots: the small dataset, and datasets of one carrier, whose
// ids show which one a server loaded.

import { join } from 'node:path';
import { buildSnapshot } from '../../data/index.js';
import { TERMINAL_HEADER, writeDataset } from './small-dataset.js';

/** Writes a dataset of one LTL carrier with one Chicago terminal into `dir`/`id`, and returns that directory. */
export function writeOneCarrierDataset(dir: string, id: string): string {
  return writeDataset(join(dir, id), {
    'carriers.json': JSON.stringify([
      { id, name: `${id} Freight`, scac: id.slice(0, 4).toUpperCase(), kind: 'ltl', unified: true, canReach: true, lookup: 'zip' },
    ]),
    'terminals.csv': [TERMINAL_HEADER, `${id},A1,${id} Chicago,1 Dock St,,Chicago,IL,60601,US,312-555-0100,,a1@${id}.example,41.8858,-87.6181,`].join('\n'),
  });
}

/** The dataset above compiled to `dir`/`id`.snapshot; returns the file. */
export function buildOneCarrierSnapshot(dir: string, id: string): string {
  const file = join(dir, `${id}.snapshot`);
  buildSnapshot(file, { dataDir: writeOneCarrierDataset(dir, id) });
  return file;
}

/** The small dataset written to `root`/small and compiled to `root`/small.snapshot. */
export function buildSmallSnapshot(root: string): { dataDir: string; snapshot: string } {
  const dataDir = writeDataset(join(root, 'small'));
  const snapshot = join(root, 'small.snapshot');
  buildSnapshot(snapshot, { dataDir });
  return { dataDir, snapshot };
}
