// Carrier files as published, through a mapping file: the worked example under data/examples/
// built by the real bin and answered from its snapshot, mistakes reported on the carrier file's own
// lines, and the day notations carriers use, translated by hand.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceDays } from '../../data/carrier-mapping.js';
import { checkDataset } from '../../data/index.js';
import { createEngine } from '../../engine/index.js';
import { runCli } from '../support/cli.js';

const EXAMPLE = 'data/examples/carrier-file';
const root = mkdtempSync(join(tmpdir(), 'mapping-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the worked example', () => {
  it('builds with --mapping and answers the carrier file\'s points', async () => {
    const out = join(root, 'ridgeline.snapshot');
    const run = await runCli(['build', EXAMPLE, '--mapping', join(EXAMPLE, 'mapping.json'), '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/error|warning/);
    expect(run.stdout).toMatch(/0 errors, 0 warnings/);
    const engine = createEngine({ snapshot: out });
    // Galveston: "I" (interline) with partner SWFT, "T,TH", Y high cost, cutoff 12:00
    const galveston = engine.serviceDays('ridgeline-freight', { zip: '77550', date: '2026-11-25' });
    expect(galveston).toMatchObject({
      served: true, terminalCode: 'HOU', cutoffTime: '12:00', timeZone: 'America/Chicago',
      highCost: true, highCostNote: 'Island delivery surcharge', interlineScac: 'SWFT',
      // Thursday 11-26 is Thanksgiving: the next Tuesday
      nextPickupDate: '2026-12-01',
    });
    expect(galveston.serviceDays).toMatchObject({ monday: false, tuesday: true, wednesday: false, thursday: true, friday: false });
    expect(engine.carrierInfo('ridgeline-freight', { zip: '77550' })).toMatchObject({ direct: false, addOnDays: 2 });
    // Fort Worth: "M,W,F", direct "D"
    expect(engine.serviceDays('ridgeline-freight', { zip: '76102', date: '2026-12-22' })).toMatchObject({
      nextPickupDate: '2026-12-23', interlineScac: null, highCost: false, cutoffTime: '15:30',
    });
    // Houston, every weekday: the carrier's own 12-24, then Christmas, then the weekend
    expect(engine.serviceDays('ridgeline-freight', { zip: '77002', date: '2026-12-23' }).nextPickupDate).toBe('2026-12-28');
  });

  it('without --mapping the carrier file is not read: no points served', () => {
    expect(checkDataset(EXAMPLE).dataset?.servicePoints).toEqual([]);
  });
});

describe('mistakes in a carrier file, on its own lines', () => {
  it('validate --mapping names the file and line of each', async () => {
    const dir = join(root, 'broken');
    cpSync(EXAMPLE, dir, { recursive: true });
    const file = join(dir, 'ridgeline-points.csv');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[3] = '76102,Fort Worth,TX,DAL,D,"M,X,F",1,15:30,N,,,J. Smith';
    lines[4] = '77002,Houston,TX,HUO,D,"M,T,W,TH,F",0,4pm,N,,,A. Lee';
    lines[5] = '77550,Galveston,TX,HOU,D,"T,TH",2,12:00,Y,Island delivery surcharge,SWFT1,A. Lee';
    writeFileSync(file, lines.join('\n'));
    const run = await runCli(['validate', dir, '--mapping', join(dir, 'mapping.json')]);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      'ridgeline-points.csv:4: error: serviceDays "M,X,F" must be letters of MTWRFSU in that order, such as MTWRF or TR',
      'ridgeline-points.csv:5: error: cutoffTime "4pm" is not a time of day written HH:MM (24-hour, such as 16:30)',
      'ridgeline-points.csv:5: error: terminalCode "HUO" is not a terminal of ridgeline-freight in terminals.csv',
      'ridgeline-points.csv:6: error: interlineScac "SWFT1" is not a SCAC: 2-4 letters, such as ABFS',
      `${dir}: 4 errors, 0 warnings`,
    ]);
  });

  it('a mapping that names a column the file lacks, or one of ours that does not exist', () => {
    const dir = join(root, 'bad-mapping');
    cpSync(EXAMPLE, dir, { recursive: true });
    const mapping = JSON.parse(readFileSync(join(dir, 'mapping.json'), 'utf8'));
    mapping.columns.zip = 'POSTAL';
    writeFileSync(join(dir, 'mapping.json'), JSON.stringify(mapping));
    expect(checkDataset(dir, { mapping: join(dir, 'mapping.json') }).findings).toEqual([
      { file: 'ridgeline-points.csv', line: 1, level: 'error', message: 'the header has no "POSTAL" column (the mapping\'s zip)' },
    ]);
    mapping.columns.zipcode = 'ZIP_CODE';
    writeFileSync(join(dir, 'mapping.json'), JSON.stringify(mapping));
    expect(checkDataset(dir, { mapping: join(dir, 'mapping.json') }).findings).toEqual([
      {
        file: 'mapping.json', line: 0, level: 'error',
        message: 'columns.zipcode: "zipcode" is not one of our columns: zip, city, state, terminalCode, direct, serviceDays, addOnDays, cutoffTime, highCost, highCostNote, interlineScac',
      },
    ]);
  });

  it('a mistake inside the mapping is named, in an entry or a list of them, not said to be the file\'s shape', () => {
    const dir = join(root, 'bad-entry');
    cpSync(EXAMPLE, dir, { recursive: true });
    const entry = JSON.parse(readFileSync(join(dir, 'mapping.json'), 'utf8'));
    const findingsWith = (mapping: unknown) => {
      writeFileSync(join(dir, 'mapping.json'), JSON.stringify(mapping));
      return checkDataset(dir, { mapping: join(dir, 'mapping.json') }).findings.map((f) => `${f.file}:${f.line}: ${f.message}`);
    };
    expect(findingsWith({ ...entry, days: 'words' })).toEqual(['mapping.json:0: days: days must be one of letters, tokens, numbers']);
    expect(findingsWith([entry, { ...entry, days: 'words' }])).toEqual(['mapping.json:0: [1].days: days must be one of letters, tokens, numbers']);
    expect(findingsWith({ ...entry, carrier: 7 })).toEqual(['mapping.json:0: carrier: carrier must be the id of a carrier of carriers.json']);
    expect(findingsWith({ ...entry, colour: 'red' })).toEqual(['mapping.json:0: unknown field "colour" (a mapping has file, carrier, columns, days and values)']);
    expect(findingsWith('ridgeline-points.csv')).toEqual(['mapping.json:0: a mapping file is an object { "file", "carrier", "columns", ... } or a list of them']);
    expect(findingsWith([])).toEqual(['mapping.json:0: a mapping file is an object { "file", "carrier", "columns", ... } or a list of them']);
  });

  it('a mapping file is read as the dataset\'s files are: a byte-order mark is allowed, a JSON mistake named on its line', () => {
    const dir = join(root, 'bom-mapping');
    cpSync(EXAMPLE, dir, { recursive: true });
    const text = readFileSync(join(dir, 'mapping.json'), 'utf8');
    writeFileSync(join(dir, 'mapping.json'), `\uFEFF${text}`);
    expect(checkDataset(dir, { mapping: join(dir, 'mapping.json') }).findings).toEqual([]);
    writeFileSync(join(dir, 'mapping.json'), '{\n  "file": "ridgeline-points.csv"\n  "carrier": "ridgeline-freight"\n}\n');
    expect(checkDataset(dir, { mapping: join(dir, 'mapping.json') }).findings).toEqual([
      { file: 'mapping.json', line: 3, level: 'error', message: 'not valid JSON at column 3: unexpected text in quotes (is a comma missing before it?)' },
    ]);
  });
});

describe('day notations', () => {
  it('tokens: letters and names, any case and separator', () => {
    expect(serviceDays('M,T,W,TH,F', 'tokens')).toBe('MTWRF');
    expect(serviceDays('Mon/Wed/Fri', 'tokens')).toBe('MWF');
    expect(serviceDays('tu th', 'tokens')).toBe('TR');
    expect(serviceDays('SAT,SUN', 'tokens')).toBe('SU');
    // S alone is Saturday or Sunday: not read, left for the column's check to report
    expect(serviceDays('M,S', 'tokens')).toBe('M,S');
  });

  it('numbers: Monday is 1; ranges, lists and runs of digits', () => {
    expect(serviceDays('1-5', 'numbers')).toBe('MTWRF');
    expect(serviceDays('1,3,5', 'numbers')).toBe('MWF');
    expect(serviceDays('135', 'numbers')).toBe('MWF');
    expect(serviceDays('6-7', 'numbers')).toBe('SU');
    expect(serviceDays('5-1', 'numbers')).toBe('5-1');
    expect(serviceDays('0-4', 'numbers')).toBe('0-4');
  });

  it('letters: ours, in any case', () => {
    expect(serviceDays('mtwrf', 'letters')).toBe('MTWRF');
  });
});
