import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The header rows of a dataset's two CSV files (README: Your own data). */
export const TERMINAL_HEADER = 'carrier,terminalCode,name,line1,line2,city,state,zipCode,country,phone,fax,email,latitude,longitude,region';
export const POINTS_HEADER = 'carrier,zip,city,state,terminalCode,direct,serviceDays,addOnDays';

/** Two carriers on real ZIPs of the default gazetteer: enough to build, search and serve. */
export const SMALL_DATASET = {
  'carriers.json': JSON.stringify([
    { id: 'acme', name: 'Acme Freight', scac: 'ACME', kind: 'ltl', unified: true, canReach: true, lookup: 'zip' },
    { id: 'zenith', name: 'Zenith Lines', scac: 'ZNTH', kind: 'freight', unified: true, canReach: true, lookup: 'state' },
  ]),
  'terminals.csv': [
    TERMINAL_HEADER,
    'acme,DAL1,Acme Dallas,1 Elm St,,Dallas,TX,75201,US,214-555-0101,,,32.7904,-96.8044,',
    'acme,BOS1,Acme Boston,2 Beacon St,,Boston,MA,02108,US,617-555-0102,,,42.3576,-71.0684,',
    'zenith,IRV1,Zenith Irving,3 Main St,,Irving,TX,75061,US,972-555-0103,,,32.8265,-96.9559,',
  ].join('\n'),
  'service-points.csv': [POINTS_HEADER, 'acme,75202,Dallas,TX,DAL1,true,MTWRF,0', 'acme,02109,Boston,MA,BOS1,true,MWF,1'].join('\n'),
};

/** Writes a dataset directory from file contents; returns its path. */
export function writeDataset(dir: string, files: Record<string, string> = SMALL_DATASET): string {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}
