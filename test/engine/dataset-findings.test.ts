// Every finding of a dataset check, one small fixture each: a valid dataset written by hand with one
// mistake put in, and the exact file, line, level and message expected for it. The ZIP gazetteer is
// a hand-written GeoNames file, so every distance below is checked by hand.

import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetError, InvalidInputError } from '../../engine/index.js';
import { checkDataset, createEngine, formatFinding, type Finding } from '../../data/index.js';
import { haversineMiles, releaseStableSampleDir, stableSampleDir, ZIP_FILE } from './oracle.js';
import { gazetteerRow } from './geonames-rows.js';
import { POINTS_HEADER, TERMINAL_HEADER } from '../support/small-dataset.js';


const ZIPS = [
  gazetteerRow('10001', 'New York', 'NY', 40.75, -74.0),
  gazetteerRow('10002', 'New York', 'NY', 40.72, -73.99),
  gazetteerRow('12201', 'Albany', 'NY', 42.65, -73.75),
  gazetteerRow('75201', 'Dallas', 'TX', 32.79, -96.8),
  gazetteerRow('14202', 'Buffalo', 'NY', 42.89, -78.88),
  gazetteerRow('13202', 'Syracuse', 'NY', 43.04, -76.15),
  gazetteerRow('00901', 'San Juan', 'PR', 18.47, -66.11),
].join('\n');

const CARRIERS_JSON = `[
  {
    "id": "acme-freight",
    "name": "Acme Freight",
    "scac": "ACMF",
    "kind": "ltl",
    "unified": true,
    "canReach": true,
    "lookup": "zip",
    "schedules": true
  },
  {
    "id": "harbor-line",
    "name": "Harbor Line",
    "scac": "HBLN",
    "kind": "worldwide",
    "unified": false,
    "canReach": false,
    "lookup": "country_code"
  }
]
`;

const TERMINALS = [
  TERMINAL_HEADER, // 1
  'acme-freight,NYC,Acme New York,1 Main St,,New York,NY,10001,US,555-0100,,nyc@acme.example,40.75,-74.0,', // 2
  'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,alb@acme.example,42.65,-73.75,', // 3
  'harbor-line,PAR,Harbor Paris,3 Rue A,,Paris,Île-de-France,,FR,555-0102,,par@harbor.example,48.85,2.35,', // 4
];

const POINTS = [
  POINTS_HEADER, // 1
  'acme-freight,10001,New York,NY,NYC,true,MTWRF,0', // 2
  'acme-freight,10002,New York,NY,NYC,true,TR,1', // 3
  'acme-freight,12201,Albany,NY,ALB,false,MWF,2', // 4
];

let root: string;
let zipFile: string;
let count = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dataset-findings-'));
  zipFile = join(root, 'US.txt');
  writeFileSync(zipFile, ZIPS);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  releaseStableSampleDir();
});

interface Files {
  carriers?: string | null;
  terminals?: string[] | null;
  points?: string[] | null;
}

/** Writes the valid dataset with the given files replaced (null: left out). */
function dataset(files: Files = {}): string {
  const dir = join(root, `case-${++count}`);
  mkdirSync(dir);
  const carriers = files.carriers === undefined ? CARRIERS_JSON : files.carriers;
  const terminals = files.terminals === undefined ? TERMINALS : files.terminals;
  const points = files.points === undefined ? POINTS : files.points;
  if (carriers !== null) writeFileSync(join(dir, 'carriers.json'), carriers);
  if (terminals !== null) writeFileSync(join(dir, 'terminals.csv'), `${terminals.join('\n')}\n`);
  if (points !== null) writeFileSync(join(dir, 'service-points.csv'), `${points.join('\n')}\n`);
  return dir;
}

const findingsOf = (files: Files): Finding[] => checkDataset(dataset(files), { zipFile }).findings;

/** The valid rows with one replaced (by its line number). */
function withLine(rows: string[], line: number, text: string): string[] {
  const copy = [...rows];
  copy[line - 1] = text;
  return copy;
}

const error = (file: string, line: number, message: string): Finding => ({ file, line, level: 'error', message });
const warning = (file: string, line: number, message: string): Finding => ({ file, line, level: 'warning', message });

describe('the valid fixture', () => {
  it('has no findings and reads whole', () => {
    const check = checkDataset(dataset(), { zipFile });
    expect(check.findings).toEqual([]);
    expect(check.dataset?.carriers.map((c) => c.id)).toEqual(['acme-freight', 'harbor-line']);
    expect(check.dataset?.terminals.map((t) => [t.terminalCode, t.latitude])).toEqual([['NYC', 40.75], ['ALB', 42.65], ['PAR', 48.85]]);
    expect(check.dataset?.servicePoints.map((p) => [p.zip, p.direct, p.addOnDays])).toEqual([['10001', true, 0], ['10002', true, 1], ['12201', false, 2]]);
  });
});

describe('errors: malformed or missing values', () => {
  const terminalCases: [string, string, string][] = [
    ['latitude out of range', 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,200,-73.75,', 'latitude 200 is not between -90 and 90'],
    ['latitude not a number', 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,4O.5,-73.75,', 'latitude "4O.5" is not a number'],
    ['longitude missing', 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,42.65,,', 'longitude is required'],
    ['longitude out of range', 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,42.65,-273.75,', 'longitude -273.75 is not between -180 and 180'],
    ['name missing', 'acme-freight,ALB,,2 State St,,Albany,NY,12201,US,555-0101,,,42.65,-73.75,', 'name is required'],
    ['country not a code', 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,USA,555-0101,,,42.65,-73.75,', 'country "USA" is not a 2-letter country code such as US or CA'],
    ['US ZIP malformed', 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,122O1,US,555-0101,,,42.65,-73.75,', 'zipCode "122O1" of a US location is not a 5-digit ZIP code or ZIP+4 (12345-6789)'],
    [
      'US ZIP of 4 digits (a spreadsheet dropped its leading zero)',
      'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,1220,US,555-0101,,,42.65,-73.75,',
      'zipCode "1220" of a US location is not a 5-digit ZIP code or ZIP+4 (12345-6789): if it was 01220, a spreadsheet that read the column as numbers dropped its leading zeros (format the column as text)',
    ],
  ];
  for (const [name, row, message] of terminalCases) {
    it(`terminals.csv: ${name}`, () => {
      expect(findingsOf({ terminals: withLine(TERMINALS, 3, row) })).toEqual([error('terminals.csv', 3, message)]);
    });
  }

  it('terminals.csv: terminal code missing (the points it served now name no terminal)', () => {
    const row = 'acme-freight,,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,42.65,-73.75,';
    expect(findingsOf({ terminals: withLine(TERMINALS, 3, row) })).toEqual([
      error('service-points.csv', 4, 'terminalCode "ALB" is not a terminal of acme-freight in terminals.csv'),
      error('terminals.csv', 3, 'terminalCode is required'),
    ]);
  });

  const pointCases: [string, string, string][] = [
    ['ZIP of 4 digits', 'acme-freight,1220,Albany,NY,ALB,false,MWF,2', 'zip "1220" is not a 5-digit ZIP code: if it was 01220, a spreadsheet that read the column as numbers dropped its leading zeros (format the column as text)'],
    ['ZIP of 3 digits', 'acme-freight,501,Albany,NY,ALB,false,MWF,2', 'zip "501" is not a 5-digit ZIP code: if it was 00501, a spreadsheet that read the column as numbers dropped its leading zeros (format the column as text)'],
    ['ZIP+4', 'acme-freight,12201-3456,Albany,NY,ALB,false,MWF,2', 'zip "12201-3456" is not a 5-digit ZIP code: this is a ZIP+4; give its first 5 digits, 12201'],
    ['ZIP with a letter', 'acme-freight,122O1,Albany,NY,ALB,false,MWF,2', 'zip "122O1" is not a 5-digit ZIP code'],
    ['state spelled out', 'acme-freight,12201,Albany,New York,ALB,false,MWF,2', 'state "New York" is not a 2-letter state code'],
    ['direct not a boolean', 'acme-freight,12201,Albany,NY,ALB,no,MWF,2', 'direct "no" must be true or false'],
    ['service days out of order', 'acme-freight,12201,Albany,NY,ALB,false,FWM,2', 'serviceDays "FWM" must be letters of MTWRFSU in that order, such as MTWRF or TR'],
    ['negative add-on days', 'acme-freight,12201,Albany,NY,ALB,false,MWF,-1', 'addOnDays "-1" is not a whole number from 0 to 99'],
    ['no service days', 'acme-freight,12201,Albany,NY,ALB,false,,2', 'serviceDays is empty: give the days the point is served, letters of MTWRFSU such as MTWRF'],
  ];
  for (const [name, row, message] of pointCases) {
    it(`service-points.csv: ${name}`, () => {
      expect(findingsOf({ points: withLine(POINTS, 4, row) })).toEqual([error('service-points.csv', 4, message)]);
    });
  }

  describe('the optional point-attribute columns', () => {
    const HEADER = `${POINTS_HEADER},cutoffTime,highCost,highCostNote,interlineScac`;
    const withAttributes = (albany: string) => [HEADER, `${POINTS[1]},,,,`, `${POINTS[2]},,,,`, albany];

    it('valid values read: a cutoff, a high-cost flag in any case with its note, an interline SCAC upper-cased', () => {
      const check = checkDataset(dataset({ points: withAttributes('acme-freight,12201,Albany,NY,ALB,false,MWF,2,16:30,TRUE,remote area,abfs') }), { zipFile });
      expect(check.findings).toEqual([]);
      expect(check.dataset?.servicePoints[2]).toMatchObject({ cutoffTime: '16:30', highCost: true, highCostNote: 'remote area', interlineScac: 'ABFS' });
    });

    const cases: [string, string, string][] = [
      ['a cutoff that is no time of day', '24:00,,,', 'cutoffTime "24:00" is not a time of day written HH:MM (24-hour, such as 16:30)'],
      ['a cutoff without its leading zero', '9:30,,,', 'cutoffTime "9:30" is not a time of day written HH:MM (24-hour, such as 16:30)'],
      ['highCost not a boolean', ',yes,,', 'highCost "yes" must be true, false or empty'],
      ['a SCAC of 5 letters', ',,,ABCDE', 'interlineScac "ABCDE" is not a SCAC: 2-4 letters, such as ABFS'],
      ['a SCAC with a digit', ',,,AB1', 'interlineScac "AB1" is not a SCAC: 2-4 letters, such as ABFS'],
    ];
    for (const [name, values, message] of cases) {
      it(`error: ${name}`, () => {
        expect(findingsOf({ points: withAttributes(`acme-freight,12201,Albany,NY,ALB,false,MWF,2,${values}`) })).toEqual([error('service-points.csv', 4, message)]);
      });
    }

    it('warnings: an interline partner on a direct point, a note without the high cost', () => {
      expect(findingsOf({ points: withAttributes('acme-freight,12201,Albany,NY,ALB,true,MWF,2,,false,ferry,ABFS') })).toEqual([
        warning('service-points.csv', 4, 'interlineScac "ABFS" names an interline partner, but direct is true: a partner serves only points with direct false, and this one is not answered'),
        warning('service-points.csv', 4, 'highCostNote is given but highCost is not true: the note is not answered'),
      ]);
    });
  });

  it('several bad values in one row: one finding each, in column order', () => {
    const row = 'acme-freight,ALB,,2 State St,,Albany,NY,12201,US,555-0101,,,91,181,';
    expect(findingsOf({ terminals: withLine(TERMINALS, 3, row) })).toEqual([
      error('terminals.csv', 3, 'name is required'),
      error('terminals.csv', 3, 'latitude 91 is not between -90 and 90'),
      error('terminals.csv', 3, 'longitude 181 is not between -180 and 180'),
    ]);
  });

  it('a row with a value too few is reported, and the next rows are still checked', () => {
    const terminals = [...withLine(TERMINALS, 3, 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,42.65,-73.75,'),
      'acme-freight,BUF,Acme Buffalo,4 Elm St,,Buffalo,NY,14202,US,555-0103,,,95,-78.9,'];
    expect(findingsOf({ terminals })).toEqual([
      error('terminals.csv', 3, 'this row has 14 values, the header has 15 columns'),
      error('terminals.csv', 5, 'latitude 95 is not between -90 and 90'),
    ]);
  });

  it('a row of one value says so in the singular', () => {
    expect(findingsOf({ terminals: [...TERMINALS, 'acme-freight'] })).toEqual([error('terminals.csv', 5, 'this row has 1 value, the header has 15 columns')]);
  });

  it('a quote that is never closed is reported on the line it opens, and the rows after it are still read', () => {
    const terminals = [
      ...TERMINALS,
      'acme-freight,BUF,"Acme Buffalo,4 Elm St,,Buffalo,NY,14202,US,555-0103,,,42.9,-78.9,', // 5
      '', // 6
      'acme-freight,SYR,Acme Syracuse,5 Elm St,,Syracuse,NY,13202,US,555-0104,,,95,-76.15,', // 7
      'acme-freight,NYC,Acme Again,6 Elm St,,New York,NY,10001,US,555-0105,,,40.75,-74.0,', // 8
    ];
    expect(findingsOf({ terminals })).toEqual([
      error('terminals.csv', 5, 'a quoted value opened on this line is never closed'),
      error('terminals.csv', 7, 'latitude 95 is not between -90 and 90'),
      error('terminals.csv', 8, 'terminalCode "NYC" of acme-freight is already used on line 2'),
    ]);
  });

  it('stray quotes are one error on their line each, and never hide the rows after them', () => {
    const terminals = [
      ...withLine(TERMINALS, 3, 'acme-freight,ALB,"Acme" Albany,2 State St,,Albany,NY,12201,US,555-0101,,,42.65,-73.75,'),
      'acme-freight,BUF,Acme "Big" Buffalo,4 Elm St,,Buffalo,NY,14202,US,555-0103,,,42.9,-78.9,', // 5
      'acme-freight,SYR,"Acme ""Big"" Syracuse",5 Elm St,,Syracuse,NY,13202,US,555-0104,,,91,-76.15,', // 6: quoted right
    ];
    const quoteAfter = 'a quoted value is followed by more text before the next comma: put the whole value in quotes, and write a quote inside it as ""';
    const quoteInside = 'a quote inside a value that is not in quotes: put the whole value in quotes, and write a quote inside it as ""';
    expect(findingsOf({ terminals })).toEqual([
      // ALB's row is unread: the points it serves name no terminal.
      error('service-points.csv', 4, 'terminalCode "ALB" is not a terminal of acme-freight in terminals.csv'),
      error('terminals.csv', 3, quoteAfter),
      error('terminals.csv', 5, quoteInside),
      error('terminals.csv', 6, 'latitude 91 is not between -90 and 90'),
    ]);
  });

  it('text that is not UTF-8 is an error on the first line it spoils; a byte-order mark is no finding', () => {
    const dir = dataset();
    const latin1 = Buffer.concat([Buffer.from(`${TERMINALS.slice(0, 3).join('\n')}\n`), Buffer.from('harbor-line,PAR,Harbor Entrep\xf4t,3 Rue A,,Paris,,,FR,555-0102,,,48.85,2.35,\n', 'latin1')]);
    writeFileSync(join(dir, 'terminals.csv'), latin1);
    writeFileSync(join(dir, 'carriers.json'), `\uFEFF${CARRIERS_JSON}`);
    expect(checkDataset(dir, { zipFile }).findings).toEqual([
      error('terminals.csv', 4, 'this line is not UTF-8 text: save the file as UTF-8 (in Excel: CSV UTF-8)'),
    ]);
  });

  it('a file saved as UTF-16 (Excel\'s Unicode Text) is one error, not one per column it seems to lack', () => {
    const dir = dataset();
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    writeFileSync(join(dir, 'terminals.csv'), utf16(`${TERMINALS.join('\r\n')}\r\n`));
    writeFileSync(join(dir, 'carriers.json'), Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(utf16(CARRIERS_JSON).subarray(2)).swap16()]));
    expect(checkDataset(dir, { zipFile }).findings).toEqual([
      error('carriers.json', 1, 'this file is UTF-16 text: save it as UTF-8 (in Excel: CSV UTF-8)'),
      error('terminals.csv', 1, 'this file is UTF-16 text: save it as UTF-8 (in Excel: CSV UTF-8)'),
    ]);
  });
});

describe('errors: columns and files', () => {
  it('a column named twice is an error; one the file does not have is a warning, with the column meant when only its case differs', () => {
    const header = `${TERMINAL_HEADER.replace('email', 'emial').replace('region', 'Region')},name`;
    const terminals = [header, ...TERMINALS.slice(1).map((row) => `${row},x`)];
    expect(findingsOf({ terminals })).toEqual([
      warning('terminals.csv', 1, `the "emial" column is not a column of terminals.csv, and is not read (the columns are ${TERMINAL_HEADER.split(',').join(', ')})`),
      warning('terminals.csv', 1, 'the "Region" column is not a column of terminals.csv, and is not read (did you mean "region"? Column names are case-sensitive)'),
      error('terminals.csv', 1, 'the header has the "name" column twice'),
    ]);
  });

  it('a dataset path that is no folder is one error naming it, not one per missing file', () => {
    const missing = join(root, 'no-such-folder');
    expect(checkDataset(missing, { zipFile }).findings).toEqual([
      error(missing, 0, 'is not a dataset directory (a folder of carriers.json, terminals.csv and service-points.csv)'),
    ]);
    expect(() => createEngine({ dataDir: missing, zipFile })).toThrow(`${missing}: error: is not a dataset directory`);
  });

  it('a trailing comma on every line, header included, is no finding', () => {
    expect(findingsOf({ terminals: TERMINALS.map((row) => `${row},`), points: POINTS.map((row) => `${row},,`) })).toEqual([]);
  });

  it('a row of commas alone, as a spreadsheet saves a blank row, is skipped as a blank line is', () => {
    const terminals = [
      ...TERMINALS,
      ',,,,,,,,,,,,,,', // 5
      ' , ,,', // 6: fewer values, and blanks
      'acme-freight,SYR,Acme Syracuse,5 Elm St,,Syracuse,NY,13202,US,555-0104,,,95,-76.15,', // 7
    ];
    expect(findingsOf({ terminals, points: [...POINTS, ',,,,,,,', ',,,,,,,'] })).toEqual([
      error('terminals.csv', 7, 'latitude 95 is not between -90 and 90'),
    ]);
  });

  it('a folder where a file should be is one error, not a thrown error', () => {
    const dir = dataset({ points: null });
    mkdirSync(join(dir, 'service-points.csv'));
    expect(checkDataset(dir, { zipFile }).findings).toEqual([error('service-points.csv', 0, 'this is a folder, not a file')]);
  });

  it('a missing required column is one error on the header line; the other columns are still checked on every row', () => {
    const drop = (row: string) => row.split(',').filter((_, i) => i !== 12).join(','); // latitude
    const terminals = withLine(TERMINALS, 3, 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,42.65,-273.75,').map(drop);
    expect(findingsOf({ terminals })).toEqual([
      error('terminals.csv', 1, 'the header has no "latitude" column'),
      error('terminals.csv', 3, 'longitude -273.75 is not between -180 and 180'),
    ]);
  });

  it('an empty file is one error giving the header it needs, the optional columns apart', () => {
    expect(findingsOf({ points: [] })).toContainEqual(
      error('service-points.csv', 1, 'the header line is missing: carrier,zip,city,state,terminalCode,direct,serviceDays,addOnDays (optional columns: cutoffTime, highCost, highCostNote, interlineScac)'),
    );
    expect(findingsOf({ terminals: [] })).toContainEqual(
      error('terminals.csv', 1, 'the header line is missing: carrier,terminalCode,name,line1,city,state,zipCode,country,phone,latitude,longitude (optional columns: line2, fax, email, region)'),
    );
  });

  it('missing optional columns (line2, fax, email, region) are no finding: their values read as empty', () => {
    const optional = new Set([4, 10, 11, 14]);
    const terminals = TERMINALS.map((row) => row.split(',').filter((_, i) => !optional.has(i)).join(','));
    const check = checkDataset(dataset({ terminals }), { zipFile });
    expect(check.findings).toEqual([]);
    expect(check.dataset?.terminals[0]).toMatchObject({ terminalCode: 'NYC', line2: '', fax: '', email: '', region: '', latitude: 40.75 });
  });

  // Without the file (or the column) the others refer to, nothing is known to be missing from it:
  // one finding, not one more per row that refers to it.
  it('a missing terminals.csv or carriers.json is an error; a missing service-points.csv is not', () => {
    expect(findingsOf({ terminals: null })).toEqual([error('terminals.csv', 0, 'the file is missing')]);
    expect(findingsOf({ carriers: null })).toEqual([error('carriers.json', 0, 'the file is missing')]);
    // Not an error: a dataset of offices alone has no points served. But acme-freight's schedules come from them.
    expect(findingsOf({ points: null })).toEqual([
      warning('carriers.json', 2, 'acme-freight has "schedules": true, but no points-served rows: its schedule and transit look-ups say "not served" everywhere'),
    ]);
    const offices = CARRIERS_JSON.replace('"schedules": true', '"schedules": false');
    expect(findingsOf({ carriers: offices, points: null })).toEqual([]);
  });

  it('a carrier without a location, or a carriers.json of none, warns: every look-up would answer nothing', () => {
    // harbor-line's one office (line 4) left out.
    expect(findingsOf({ terminals: TERMINALS.slice(0, 3) })).toEqual([
      warning('carriers.json', 12, 'harbor-line has no location in terminals.csv: its look-ups list nothing and no search finds it'),
    ]);
    expect(findingsOf({ carriers: '[]\n', terminals: [TERMINAL_HEADER], points: [POINTS_HEADER] })).toEqual([
      warning('carriers.json', 1, 'lists no carrier: every look-up answers nothing'),
    ]);
  });

  it('a file named almost as the dataset names it is said to be unread', () => {
    const misnamed = (from: string, to: string) => {
      const dir = dataset();
      renameSync(join(dir, from), join(dir, to));
      return checkDataset(dir, { zipFile }).findings;
    };
    expect(misnamed('service-points.csv', 'service_points.csv')).toEqual([
      warning('carriers.json', 2, 'acme-freight has "schedules": true, but no points-served rows: its schedule and transit look-ups say "not served" everywhere'),
      warning('service-points.csv', 0, 'is not in the folder, but service_points.csv is: named so, it is not read'),
    ]);
    expect(misnamed('terminals.csv', 'Terminals.CSV')).toContainEqual(
      error('terminals.csv', 0, 'the file is missing (Terminals.CSV is in the folder: named so, it is not read)'),
    );
    expect(misnamed('carriers.json', 'Carriers.json')).toEqual([
      error('carriers.json', 0, 'the file is missing (Carriers.json is in the folder: named so, it is not read)'),
    ]);
  });

  it('a terminals.csv without its terminalCode column is one error, not one per served point', () => {
    const terminals = TERMINALS.map((row) => row.split(',').filter((_, i) => i !== 1).join(','));
    expect(findingsOf({ terminals })).toEqual([error('terminals.csv', 1, 'the header has no "terminalCode" column')]);
  });
});

describe('errors: rows naming what does not exist, and repeated codes', () => {
  it('an unknown carrier, in either table', () => {
    const message = 'unknown carrier "acme-fraight": carriers.json has no carrier with that id';
    expect(findingsOf({ terminals: withLine(TERMINALS, 3, TERMINALS[2].replace('acme-freight', 'acme-fraight')) })).toEqual([
      error('service-points.csv', 4, 'terminalCode "ALB" is not a terminal of acme-freight in terminals.csv'),
      error('terminals.csv', 3, message),
    ]);
    expect(findingsOf({ points: withLine(POINTS, 3, POINTS[2].replace('acme-freight', 'acme-fraight')) })).toEqual([
      error('service-points.csv', 3, message),
    ]);
  });

  it('a duplicate terminal code of one carrier names the line it repeats', () => {
    const terminals = [...TERMINALS, 'acme-freight,NYC,Acme Midtown,5 Fifth Ave,,New York,NY,10001,US,555-0104,,,40.75,-73.99,'];
    expect(findingsOf({ terminals })).toEqual([error('terminals.csv', 5, 'terminalCode "NYC" of acme-freight is already used on line 2')]);
    // the same code at another carrier is fine
    const other = [...TERMINALS, 'harbor-line,NYC,Harbor New York,6 Pier Rd,,New York,NY,10001,US,555-0105,,,40.75,-74.0,'];
    expect(findingsOf({ terminals: other })).toEqual([]);
  });

  it('a served point naming a terminal that does not exist', () => {
    expect(findingsOf({ points: withLine(POINTS, 3, 'acme-freight,10002,New York,NY,BKN,true,TR,1') })).toEqual([
      error('service-points.csv', 3, 'terminalCode "BKN" is not a terminal of acme-freight in terminals.csv'),
    ]);
  });
});

describe('errors: carriers.json, on the line of the entry or field', () => {
  it('a bad field is reported on its own line, in words', () => {
    const carriers = CARRIERS_JSON.replace('"kind": "ltl"', '"kind": "truck"').replace('"scac": "HBLN"', '"scac": "hb"');
    expect(findingsOf({ carriers })).toEqual([
      error('carriers.json', 6, 'kind "truck" must be one of ltl, freight, worldwide, postal'),
      error('carriers.json', 15, 'scac "hb" must be 2-4 upper-case letters or digits'),
    ]);
  });

  it('a missing field or an unknown one is reported on the entry\'s line', () => {
    const carriers = CARRIERS_JSON.replace('    "unified": false,\n', '').replace('"lookup": "zip",', '"lookup": "zip", "colour": "red",');
    expect(findingsOf({ carriers })).toEqual([
      error('carriers.json', 2, 'unknown field "colour"'),
      error('carriers.json', 12, 'unified is required'),
    ]);
  });

  it('holidays: an unknown calendar, a date that is no day and a repeated date, each on its own line', () => {
    const carriers = CARRIERS_JSON.replace(
      '"schedules": true\n',
      '"schedules": true,\n    "holidays": {\n      "calendar": "us-federal",\n      "dates": [\n        "2026-02-30",\n        "2026-12-24"\n      ]\n    }\n',
    );
    expect(findingsOf({ carriers })).toEqual([
      error('carriers.json', 12, 'holidays.calendar "us-federal" must be one of us-ltl'),
      error('carriers.json', 14, 'holidays.dates "2026-02-30" is not a day of the calendar'),
    ]);
    const twice = CARRIERS_JSON.replace('"schedules": true\n', '"schedules": true,\n    "holidays": { "dates": ["2026-12-24", "2026-12-24"] }\n');
    expect(findingsOf({ carriers: twice })).toEqual([error('carriers.json', 11, 'holidays.dates lists 2026-12-24 twice')]);
    const empty = CARRIERS_JSON.replace('"schedules": true\n', '"schedules": true,\n    "holidays": {}\n');
    expect(findingsOf({ carriers: empty })).toEqual([
      error('carriers.json', 11, 'holidays names no calendar and no date: give "calendar", "dates" or both, or leave holidays out'),
    ]);
    const valid = CARRIERS_JSON.replace('"schedules": true\n', '"schedules": true,\n    "holidays": { "calendar": "us-ltl", "dates": ["2026-12-24"] }\n');
    expect(checkDataset(dataset({ carriers: valid }), { zipFile }).dataset?.carriers[0].holidays).toEqual({ calendar: 'us-ltl', dates: ['2026-12-24'] });
  });

  it('holidays: a repeated date on its own line, each bad date once, and a year no query can name', () => {
    const carriers = CARRIERS_JSON.replace(
      '"schedules": true\n',
      '"schedules": true,\n    "holidays": {\n      "dates": [\n        "2026-12-24",\n        "2026-2-3",\n' +
        '        "0206-12-24",\n        "2026-12-24"\n      ]\n    }\n',
    );
    expect(findingsOf({ carriers })).toEqual([
      error('carriers.json', 14, 'holidays.dates "2026-2-3" must be a date written YYYY-MM-DD'),
      error('carriers.json', 15, 'holidays.dates "0206-12-24" is outside 1970-01-01 to 2999-12-24, the dates a query may name'),
      error('carriers.json', 16, 'holidays.dates lists 2026-12-24 twice'),
    ]);
  });

  it('a repeated id names the line it repeats', () => {
    const carriers = CARRIERS_JSON.replace('"id": "harbor-line"', '"id": "acme-freight"');
    const found = findingsOf({ carriers, terminals: TERMINALS.slice(0, 3) });
    expect(found).toEqual([error('carriers.json', 12, 'carrier id "acme-freight" is already used on line 2')]);
  });

  it('at most 250 carriers: one more is an error, 250 build and answer for the last of them', () => {
    const entry = (i: number) =>
      `{ "id": "c${i}", "name": "Carrier ${i}", "scac": "C${i % 1000}", "kind": "ltl", "unified": true, "canReach": false, "lookup": "zip" }`;
    const carriers = (n: number) => `[\n${Array.from({ length: n }, (_, i) => entry(i + 1)).join(',\n')}\n]\n`;
    const lastTerminal = [TERMINAL_HEADER, 'c250,DAL,Dallas Yard,1 Elm St,,Dallas,TX,75201,US,555-0199,,,32.79,-96.8,'];
    expect(findingsOf({ carriers: carriers(251), terminals: [TERMINAL_HEADER], points: [POINTS_HEADER] })).toEqual([
      error('carriers.json', 1, 'a dataset holds at most 250 carriers, this one has 251'),
    ]);
    const engine = createEngine({ dataDir: dataset({ carriers: carriers(250), terminals: lastTerminal, points: [POINTS_HEADER] }), zipFile });
    expect(engine.carriers).toHaveLength(250);
    expect(engine.search({ zip: '75201' }).results.map((r) => [r.carrier, r.terminalCode, r.match])).toEqual([['c250', 'DAL', 'exact']]);
  });

  it('JSON syntax: the line of the mistake', () => {
    const carriers = CARRIERS_JSON.replace('"kind": "worldwide",', '"kind": "worldwide"');
    // the comma is missing at the end of line 16: the parser finds out at the next field, on line 17
    expect(findingsOf({ carriers })).toEqual([error('carriers.json', 17, 'not valid JSON at column 5: unexpected text in quotes (is a comma missing before it?)')]);
  });
});

describe('warnings: geography that looks wrong, and repeated rows', () => {
  it('a terminal whose state disagrees with its ZIP\'s state', () => {
    const row = 'acme-freight,ALB,Acme Albany,2 State St,,Albany,TX,12201,US,555-0101,,,42.65,-73.75,';
    expect(findingsOf({ terminals: withLine(TERMINALS, 3, row) })).toEqual([
      warning('terminals.csv', 3, 'state TX disagrees with ZIP 12201, which is in NY'),
    ]);
  });

  it('coordinates more than 50 mi from the ZIP\'s point', () => {
    // 42.65 N -> 41.65 N along a meridian: 1 degree = 69.09 mi (Earth radius 3958.8 mi)
    const row = 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,41.65,-73.75,';
    expect(findingsOf({ terminals: withLine(TERMINALS, 3, row) })).toEqual([
      warning('terminals.csv', 3, 'latitude 41.65, longitude -73.75 is 69 mi from ZIP 12201 (Albany, NY): more than 50 mi'),
    ]);
    // 0.7 degrees (48 mi) is within the limit
    const near = 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,41.95,-73.75,';
    expect(findingsOf({ terminals: withLine(TERMINALS, 3, near) })).toEqual([]);
  });

  it('a US state code that is not a state or territory', () => {
    const row = 'acme-freight,BUF,Acme Buffalo,4 Elm St,,Buffalo,XX,14202,US,555-0103,,,42.9,-78.9,';
    expect(findingsOf({ terminals: [...TERMINALS, row] })).toEqual([
      warning('terminals.csv', 5, 'state "XX" is not a US state or territory'),
      warning('terminals.csv', 5, 'state XX disagrees with ZIP 14202, which is in NY'),
    ]);
    // territories are states here; a foreign office's region is no US state code
    const pr = 'acme-freight,SJU,Acme San Juan,7 Calle Luna,,San Juan,PR,00901,US,555-0106,,,18.47,-66.11,';
    expect(findingsOf({ terminals: [...TERMINALS, pr] })).toEqual([]);
  });

  it('a carrier id in another case in the CSV files: read as the id, as a query reads it', () => {
    const terminals = withLine(TERMINALS, 3, 'Acme-Freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,alb@acme.example,42.65,-73.75,');
    const points = withLine(POINTS, 4, 'ACME-FREIGHT,12201,Albany,NY,ALB,false,MWF,2');
    const check = checkDataset(dataset({ terminals, points }), { zipFile });
    expect(check.findings).toEqual([]);
    expect(check.dataset?.terminals.map((t) => t.carrier)).toEqual(['acme-freight', 'acme-freight', 'harbor-line']);
    expect(check.dataset?.servicePoints.map((p) => p.carrier)).toEqual(['acme-freight', 'acme-freight', 'acme-freight']);
    // Also from a row with a value too many: the points it serves still find it.
    const long = withLine(TERMINALS, 3, 'Acme-Freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,alb@acme.example,42.65,-73.75,,x');
    expect(findingsOf({ terminals: long })).toEqual([error('terminals.csv', 3, 'this row has 16 values, the header has 15 columns')]);
  });

  it('a country code in lower case: read as the code, as the state is', () => {
    // Albany filed under TX: the check against its ZIP, made only for a US location, runs.
    const terminals = withLine(TERMINALS, 3, 'acme-freight,ALB,Acme Albany,2 State St,,Albany,TX,12201,us,555-0101,,alb@acme.example,42.65,-73.75,');
    const harbor = withLine(terminals, 4, 'harbor-line,PAR,Harbor Paris,3 Rue A,,Paris,Île-de-France,,fr,555-0102,,par@harbor.example,48.85,2.35,');
    const check = checkDataset(dataset({ terminals: harbor }), { zipFile });
    expect(check.findings).toEqual([warning('terminals.csv', 3, 'state TX disagrees with ZIP 12201, which is in NY')]);
    expect(check.dataset?.terminals.map((t) => t.country)).toEqual(['US', 'US', 'FR']);
  });

  it('can-reach on data none of whose carriers has canReach: the 400 says so, not "one of ;"', () => {
    const engine = createEngine({ dataDir: dataset({ carriers: CARRIERS_JSON.replace('"canReach": true', '"canReach": false') }), zipFile });
    expect(() => engine.canReach({ carrier: 'acme-freight', zip: '10001' })).toThrow(
      new InvalidInputError('carrier "acme-freight" is not accepted: no carrier of this data has "canReach": true in carriers.json'),
    );
  });

  it('a state code in lower case: read as the code, as a query reads it, in both files', () => {
    const terminals = withLine(TERMINALS, 3, 'acme-freight,ALB,Acme Albany,2 State St,,Albany,ny,12201,US,555-0101,,alb@acme.example,42.65,-73.75,');
    const points = withLine(POINTS, 4, 'acme-freight,12201,Albany,ny,ALB,false,mwf,2');
    expect(findingsOf({ terminals, points })).toEqual([]);
    const engine = createEngine({ dataDir: dataset({ terminals, points }), zipFile });
    const albany = engine.search({ state: 'NY' }).results.find((r) => r.terminalCode === 'ALB');
    expect(albany).toMatchObject({ state: 'NY', match: 'exact' });
    expect(engine.canReach({ carrier: 'acme-freight', state: 'NY' }).canReach).toBe(true);
    // The days in any case, as a mapping's letters: Albany is served Monday, Wednesday and Friday.
    expect(engine.serviceDays('acme-freight', { zip: '12201' })).toMatchObject({ served: true, serviceDays: { monday: true, tuesday: false, wednesday: true, friday: true } });
  });

  it('createEngine of a dataset with warnings builds, and tells onWarnings of them', () => {
    const row = 'acme-freight,BUF,Acme Buffalo,4 Elm St,,Buffalo,XX,14202,US,555-0103,,,42.9,-78.9,';
    const told: Finding[][] = [];
    const engine = createEngine({ dataDir: dataset({ terminals: [...TERMINALS, row] }), zipFile, onWarnings: (warnings) => told.push(warnings) });
    expect(engine.geocode({ zip: '14202' }).found).toBe(true);
    expect(told).toEqual([[
      warning('terminals.csv', 5, 'state "XX" is not a US state or territory'),
      warning('terminals.csv', 5, 'state XX disagrees with ZIP 14202, which is in NY'),
    ]]);
    // Without warnings it is not called; and it must be a function.
    createEngine({ dataDir: dataset(), zipFile, onWarnings: (warnings) => told.push(warnings) });
    expect(told).toHaveLength(1);
    expect(() => createEngine({ dataDir: dataset(), zipFile, onWarnings: 'log' as never })).toThrow("onWarnings must be a function, called with the dataset's warnings");
  });

  it('latitude and longitude swapped: the warning says so', () => {
    const row = 'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,-73.75,42.65,';
    const miles = Math.round(haversineMiles(-73.75, 42.65, 42.65, -73.75));
    expect(findingsOf({ terminals: withLine(TERMINALS, 3, row) })).toContainEqual(
      warning('terminals.csv', 3, `latitude -73.75, longitude 42.65 is ${miles} mi from ZIP 12201 (Albany, NY): more than 50 mi; latitude and longitude look swapped`),
    );
  });

  it('a file saved with semicolons (or tabs) for commas is one error on its header', () => {
    for (const [separator, name] of [[';', 'semicolons'], ['\t', 'tabs']]) {
      const terminals = TERMINALS.map((line) => line.replaceAll(',', separator!));
      expect(findingsOf({ terminals }), name).toEqual([
        error('terminals.csv', 1, `the header is one column: its values are separated by ${name}, not commas (save the file as "CSV UTF-8 (Comma delimited)")`),
      ]);
    }
  });

  it('a state written by its name: the warning gives its code', () => {
    const row = 'acme-freight,BUF,Acme Buffalo,4 Elm St,,Buffalo,New York,14202,US,555-0103,,,42.9,-78.9,';
    expect(findingsOf({ terminals: [...TERMINALS, row] })).toEqual([
      warning('terminals.csv', 5, 'state "New York" is a name: write its code, NY, or look-ups by state never list this location'),
    ]);
    // Named, but not the ZIP's state: both said.
    const texas = 'acme-freight,BUF,Acme Buffalo,4 Elm St,,Buffalo,texas,14202,US,555-0103,,,42.9,-78.9,';
    expect(findingsOf({ terminals: [...TERMINALS, texas] })).toEqual([
      warning('terminals.csv', 5, 'state "texas" is a name: write its code, TX, or look-ups by state never list this location'),
      warning('terminals.csv', 5, 'state texas disagrees with ZIP 14202, which is in NY'),
    ]);
  });

  it('a US location with an empty city, state or ZIP: look-ups by them never list it', () => {
    const row = 'acme-freight,BUF,Acme Buffalo,4 Elm St,,,,,US,555-0103,,,42.9,-78.9,';
    expect(findingsOf({ terminals: [...TERMINALS, row] })).toEqual([
      warning('terminals.csv', 5, 'city is empty: look-ups by city never list this US location, only searches by distance'),
      warning('terminals.csv', 5, 'state is empty: look-ups by state never list this US location, only searches by distance'),
      warning('terminals.csv', 5, 'zipCode is empty: look-ups by ZIP never list this US location, only searches by distance'),
    ]);
  });

  it('a served point whose state disagrees with its ZIP\'s state', () => {
    expect(findingsOf({ points: withLine(POINTS, 3, 'acme-freight,10002,New York,TX,NYC,true,TR,1') })).toEqual([
      warning('service-points.csv', 3, 'state TX disagrees with ZIP 10002, which is in NY'),
    ]);
  });

  it('a US location whose ZIP the gazetteer lacks', () => {
    const row = 'acme-freight,BUF,Acme Buffalo,4 Elm St,,Buffalo,NY,14299,US,555-0103,,,42.9,-78.9,';
    expect(findingsOf({ terminals: [...TERMINALS, row] })).toEqual([
      warning('terminals.csv', 5, 'ZIP 14299 is not in the ZIP gazetteer (GeoNames): no such ZIP code, or a newer one than the file'),
    ]);
  });

  it('direct in any case, as spreadsheets write TRUE and FALSE', () => {
    const check = checkDataset(dataset({ points: [POINTS[0], 'acme-freight,10001,New York,NY,NYC,TRUE,MTWRF,0', 'acme-freight,12201,Albany,NY,ALB,False,MWF,2'] }), { zipFile });
    expect(check.findings).toEqual([]);
    expect(check.dataset?.servicePoints.map((p) => p.direct)).toEqual([true, false]);
  });

  it('a drop point id two postal carriers share: the lookup by id answers with the first', () => {
    const postal = (id: string) => `{ "id": "${id}", "name": "${id}", "scac": "POST", "kind": "postal", "unified": false, "canReach": false, "lookup": "zip" }`;
    const carriers = `[\n${[...JSON.parse(CARRIERS_JSON).map((c: unknown) => JSON.stringify(c)), postal('post-a'), postal('post-b')].join(',\n')}\n]`;
    const terminals = [
      ...TERMINALS,
      'post-a,DP1,Post A Box,1 Elm St,,New York,NY,10001,US,,,,40.75,-74.0,', // 5
      'post-b,DP1,Post B Box,2 Elm St,,New York,NY,10002,US,,,,40.72,-73.99,', // 6
      'harbor-line,DP1,Harbor Office,3 Elm St,,New York,NY,10001,US,,,,40.75,-74.0,', // 7: not a drop point
    ];
    expect(findingsOf({ carriers, terminals })).toEqual([
      warning('terminals.csv', 6, 'drop point id "DP1" is also post-a\'s, on line 5: /api/drop-points/DP1 answers with that one'),
    ]);
  });

  it('a served ZIP the gazetteer lacks', () => {
    expect(findingsOf({ points: [...POINTS, 'acme-freight,99999,Nowhere,NY,NYC,true,MTWRF,0'] })).toEqual([
      warning('service-points.csv', 5, 'ZIP 99999 is not in the ZIP gazetteer (GeoNames): no such ZIP code, or a newer one than the file'),
    ]);
  });

  it('a served ZIP more than 500 mi from its terminal', () => {
    // Dallas (32.79, -96.8) from New York's terminal (40.75, -74.0): 1,370 mi by the haversine formula
    expect(findingsOf({ points: [...POINTS, 'acme-freight,75201,Dallas,TX,NYC,true,MTWRF,3'] })).toEqual([
      warning('service-points.csv', 5, `ZIP 75201 is ${Math.round(haversineMiles(32.79, -96.8, 40.75, -74.0))} mi from its terminal NYC: more than 500 mi`),
    ]);
  });

  it('a duplicate points-served row names the line it repeats (the city compared as a name), and what the two say differently', () => {
    // Line 3 serves 10002 on TR, direct, one add-on day.
    expect(findingsOf({ points: [...POINTS, 'acme-freight,10002,NEW YORK,NY,NYC,false,MTWRF,0'] })).toEqual([
      warning('service-points.csv', 5, 'repeats line 3: acme-freight serving 10002 NEW YORK, and the two disagree on direct, serviceDays and addOnDays: keep the one that is right'),
    ]);
    expect(findingsOf({ points: [...POINTS, 'acme-freight,10002,New York,NY,NYC,true,TR,1'] })).toEqual([
      warning('service-points.csv', 5, 'repeats line 3: acme-freight serving 10002 New York'),
    ]);
    // The optional columns too: what a can-reach answer says of the point.
    const header = `${POINTS_HEADER},highCost`;
    const points = [header, ...POINTS.slice(1).map((row) => `${row},false`), 'acme-freight,10002,New York,NY,NYC,true,TR,1,true'];
    expect(findingsOf({ points })).toEqual([
      warning('service-points.csv', 5, 'repeats line 3: acme-freight serving 10002 New York, and the two disagree on highCost: keep the one that is right'),
    ]);
  });

  it('warnings leave the dataset usable: the engine loads it', () => {
    const dir = dataset({ points: [...POINTS, 'acme-freight,99999,Nowhere,NY,NYC,true,MTWRF,0'] });
    expect(checkDataset(dir, { zipFile }).dataset).not.toBeNull();
    expect(createEngine({ dataDir: dir, zipFile }).carriers.map((c) => c.id)).toEqual(['acme-freight', 'harbor-line']);
  });
});

describe('all at once, sorted by file and line', () => {
  it('every finding of a dataset with many mistakes, formatted as file:line: level: message', () => {
    const carriers = CARRIERS_JSON.replace('"scac": "ACMF"', '"scac": "acmf"');
    const terminals = [
      TERMINAL_HEADER,
      'acme-freight,NYC,Acme New York,1 Main St,,New York,TX,10001,US,555-0100,,,40.75,-74.0,',
      'acme-freight,ALB,Acme Albany,2 State St,,Albany,NY,12201,US,555-0101,,,142.65,-73.75,',
      'harbor-line,PAR,Harbor Paris,3 Rue A,,Paris,Île-de-France,,FR,555-0102,,,48.85,2.35,',
    ];
    const points = [...POINTS, 'acme-freight,99999,Nowhere,NY,NYC,true,MTWRF,0', 'acme-freight,10001,New York,NY,NYC,true,MTWRF,0'];
    const dir = dataset({ carriers, terminals, points });
    const expected = [
      'carriers.json:5: error: scac "acmf" must be 2-4 upper-case letters or digits',
      'service-points.csv:5: warning: ZIP 99999 is not in the ZIP gazetteer (GeoNames): no such ZIP code, or a newer one than the file',
      'service-points.csv:6: warning: repeats line 2: acme-freight serving 10001 New York',
      'terminals.csv:2: warning: state TX disagrees with ZIP 10001, which is in NY',
      'terminals.csv:3: error: latitude 142.65 is not between -90 and 90',
    ];
    expect(checkDataset(dir, { zipFile }).findings.map(formatFinding)).toEqual(expected);
    // loading fails with the same list, warnings included
    try {
      createEngine({ dataDir: dir, zipFile });
      expect.unreachable('the dataset has errors');
    } catch (e) {
      expect(e).toBeInstanceOf(DatasetError);
      expect((e as DatasetError).problems).toEqual(expected);
      expect((e as DatasetError).findings.map(formatFinding)).toEqual(expected);
    }
  });
});

describe('the sample dataset', () => {
  it('passes every check, warnings included, against the GeoNames file it was generated from', () => {
    expect(checkDataset(stableSampleDir(), { zipFile: ZIP_FILE }).findings.map(formatFinding)).toEqual([]);
  });
});
