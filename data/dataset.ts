// A dataset directory (carriers.json, terminals.csv, service-points.csv), checked as a whole: every
// malformed value, every row naming something that does not exist, and geography that looks wrong,
// reported together as findings sorted by file and line.

import { statSync } from 'node:fs';
import type { CarrierInfo } from '../engine/carriers.js';
import { checkCarriersHaveLocations, checkDropPointIds, checkRegions, checkScheduledCarriers, checkServicePoints, checkTerminals } from './dataset-checks.js';
import { readMapping } from './carrier-mapping.js';
import { readCarriers, readTable } from './dataset-files.js';
import { SERVICE_POINTS, TERMINALS, type ServicePointRow, type TerminalRow } from './dataset-rows.js';
import { DatasetError } from '../engine/errors.js';
import { Findings, formatFinding, type Finding } from './findings.js';
import type { Gazetteer } from '../engine/gazetteer.js';
import type { GazetteerTable } from '../engine/snapshot-format.js';
import { gazetteerOf, readGazetteer } from './geonames.js';
import { datasetCheckOptionsSchema, datasetDirSchema } from './options.js';
import { checkedOptions } from '../engine/options.js';
import { parseWithZod } from '../engine/requests.js';

export interface Dataset {
  /** In any order: the network compiler numbers them by id. */
  carriers: CarrierInfo[];
  terminals: TerminalRow[];
  servicePoints: ServicePointRow[];
}

export interface DatasetCheck {
  /** Sorted by file and line. */
  findings: Finding[];
  /** The dataset, when no finding is an error. */
  dataset: Dataset | null;
  /** The ZIP gazetteer it was checked against, to compile with it without reading the file again. */
  gazetteer: GazetteerTable<string[]>;
}

export interface DatasetCheckOptions {
  /** The GeoNames postal-code file the geography is checked against; default the one `createEngine` uses. */
  zipFile?: string | undefined;
  /** A mapping file (mapping.json): carriers' own points files, read beside service-points.csv (carrier-mapping.ts). */
  mapping?: string | undefined;
}

/**
 * Every check of a dataset directory, without throwing: what `carrier-locations validate` prints.
 * Its arguments are the caller's, not the dataset's: a `dir` that is not a path, or an option that
 * is wrong, is an InvalidInputError, and a `zipFile` that cannot be read throws Node's file error.
 */
export function checkDataset(dir: string, options: DatasetCheckOptions = {}): DatasetCheck {
  const path = parseWithZod(datasetDirSchema, dir);
  const { zipFile, mapping } = checkedOptions(datasetCheckOptionsSchema, options);
  const gazetteer = readGazetteer(zipFile);
  return { ...checkAgainst(path, gazetteerOf(gazetteer), mapping), gazetteer };
}

/**
 * The dataset, or a DatasetError listing every finding (warnings too) when any is an error. A
 * dataset read with warnings alone is returned, and its warnings given to `onWarnings`.
 */
export function readDataset(dir: string, gazetteer: Gazetteer, mapping?: string, onWarnings?: (warnings: Finding[]) => void): Dataset {
  const { findings, dataset } = checkAgainst(dir, gazetteer, mapping);
  if (!dataset) throw new DatasetError(findings.map(formatFinding), findings);
  if (findings.length > 0) onWarnings?.(findings);
  return dataset;
}

function checkAgainst(dir: string, gazetteer: Gazetteer, mapping?: string): Omit<DatasetCheck, 'gazetteer'> {
  const findings = new Findings();
  // One finding for a wrong path, not one per file the folder would have held.
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    findings.error(dir, 0, 'is not a dataset directory (a folder of carriers.json, terminals.csv and service-points.csv)');
    return { findings: findings.sorted(), dataset: null };
  }
  const carriers = readCarriers(dir, findings);
  const terminals = readTable(dir, TERMINALS, findings);
  const servicePoints = readTable(dir, SERVICE_POINTS, findings);
  const known = checkTerminals(terminals.rows, carriers.ids, gazetteer, findings);
  checkDropPointIds(terminals.rows, carriers.carriers, findings);
  checkRegions(terminals.rows, carriers.carriers, findings);
  // Without the terminals' key columns no served point can find its terminal: that is one finding
  // already (the file or the column is missing), not one more per served point.
  checkServicePoints(servicePoints.rows, carriers.ids, terminals.keyed ? known : null, gazetteer, findings);
  // Carriers' own points files, read through the mapping, checked as service-points.csv is, on their own lines.
  const mapped = (mapping === undefined ? [] : (readMapping(mapping, findings) ?? [])).map((source) => {
    const table = readTable(dir, SERVICE_POINTS, findings, source);
    checkServicePoints(table.rows, carriers.ids, terminals.keyed ? known : null, gazetteer, findings, source.file);
    return table.rows;
  });
  if (findings.hasErrors) return { findings: findings.sorted(), dataset: null };
  // Only once the points are all read: a file or mapping in error leaves a carrier without rows.
  checkScheduledCarriers(carriers, [servicePoints.rows, ...mapped].flat(), findings);
  checkCarriersHaveLocations(carriers, terminals.rows, findings);
  return {
    findings: findings.sorted(),
    dataset: {
      carriers: carriers.carriers,
      // Without an error every column is present and every value valid: the rows are whole.
      terminals: terminals.rows.map((r) => r.row as TerminalRow),
      servicePoints: [servicePoints.rows, ...mapped].flat().map((r) => r.row as ServicePointRow),
    },
  };
}
