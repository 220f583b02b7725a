// `build` and `validate` as a user runs them: findings exactly as checkDataset reports them, a
// snapshot that answers like its dataset, nothing written when the data has errors, and the bundled
// sample snapshot never replaced by other data.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SNAPSHOT } from '../../engine/package-files.js';
import { checkDataset, createEngine, formatFinding } from '../../data/index.js';
import { runCli } from '../support/cli.js';
import { SMALL_DATASET, writeDataset } from '../support/small-dataset.js';
import { gazetteerRow } from '../engine/geonames-rows.js';

let root: string;
let valid: string;
let broken: string;
let warned: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cli-datasets-'));
  valid = writeDataset(join(root, 'valid'));
  broken = writeDataset(join(root, 'broken'), {
    ...SMALL_DATASET,
    'terminals.csv': SMALL_DATASET['terminals.csv']
      .replace('32.7904', '200') // latitude out of range
      .replace('zenith,IRV1', 'nobody,IRV1'), // unknown carrier
  });
  warned = writeDataset(join(root, 'warned'), {
    ...SMALL_DATASET,
    'terminals.csv': SMALL_DATASET['terminals.csv'].replace('Dallas,TX,75201', 'Dallas,OK,75201'), // state against the ZIP's
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The broken dataset has two bad rows, and a served point loses its terminal with the first. */
function errorCount(dir: string): number {
  const errors = checkDataset(dir).findings.filter((f) => f.level === 'error').length;
  expect(errors).toBeGreaterThanOrEqual(2);
  return errors;
}

describe('validate', () => {
  it('prints every finding of checkDataset and the counts; exit 1 on errors', async () => {
    const { findings } = checkDataset(broken);
    const run = await runCli(['validate', broken]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe([...findings.map(formatFinding), `${broken}: ${errorCount(broken)} errors, 0 warnings`, ''].join('\n'));
  });

  it('--json prints the findings list', async () => {
    const run = await runCli(['validate', broken, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual(checkDataset(broken).findings);
  });

  it('a valid dataset passes, also with --strict', async () => {
    expect(checkDataset(valid).findings).toEqual([]);
    for (const strict of [[], ['--strict']]) {
      expect(await runCli(['validate', valid, ...strict])).toEqual({ code: 0, stdout: `${valid}: 0 errors, 0 warnings\n`, stderr: '' });
    }
    expect((await runCli(['validate', valid, '--json'])).stdout).toBe('[]\n');
  });

  it('warnings pass, and fail with --strict', async () => {
    const { findings } = checkDataset(warned);
    expect(findings.map((f) => f.level)).toEqual(['warning']);
    const printed = `${formatFinding(findings[0])}\n${warned}: 0 errors, 1 warning`;
    expect(await runCli(['validate', warned])).toEqual({ code: 0, stdout: `${printed}\n`, stderr: '' });
    // The count says why the check failed.
    expect(await runCli(['validate', warned, '--strict'])).toEqual({ code: 1, stdout: `${printed} (--strict: warnings fail the check)\n`, stderr: '' });
  });

  it('a path that is no directory is one line, exit 1', async () => {
    const missing = join(root, 'nowhere');
    expect(await runCli(['validate', missing])).toEqual({ code: 1, stdout: '', stderr: `error: ${missing} is not a dataset directory\n` });
  });
});

describe('build', () => {
  it('writes a snapshot that answers exactly like the dataset', async () => {
    const out = join(root, 'out', 'valid.snapshot');
    const run = await runCli(['build', valid, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^wrote ${out} \\(\\d+\\.\\d MB\\) from ${valid} in \\d+\\.\\d s: 0 errors, 0 warnings\\n$`));
    const fromSnapshot = createEngine({ snapshot: out });
    const fromDir = createEngine({ dataDir: valid });
    for (const zip of ['75201', '02108', '60601']) expect(JSON.stringify(fromSnapshot.search({ zip, radius: 100 }))).toBe(JSON.stringify(fromDir.search({ zip, radius: 100 })));
    // Written through a temporary file that is renamed: none is left behind.
    expect(readdirSync(join(root, 'out'))).toEqual(['valid.snapshot']);
  });

  it('with warnings prints them on stderr and writes the snapshot', async () => {
    const out = join(root, 'warned.snapshot');
    const run = await runCli(['build', warned, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/: 0 errors, 1 warning\n$/);
    expect(run.stderr).toContain(`${formatFinding(checkDataset(warned).findings[0])}\n`);
    expect(JSON.stringify(createEngine({ snapshot: out }).search({ zip: '75201' }))).toBe(JSON.stringify(createEngine({ dataDir: warned }).search({ zip: '75201' })));
  });

  it('with an error prints the findings, writes nothing and exits 1', async () => {
    const out = join(root, 'broken.snapshot');
    const run = await runCli(['build', broken, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const findings = checkDataset(broken).findings.map(formatFinding);
    expect(run.stderr.split('\n').filter((line) => !line.startsWith('['))).toEqual([...findings, `error: ${broken}: ${errorCount(broken)} errors, 0 warnings: nothing written`, '']);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to replace the bundled sample snapshot with other data', async () => {
    const before = existsSync(DEFAULT_SNAPSHOT) ? statSync(DEFAULT_SNAPSHOT).mtimeMs : undefined;
    const run = await runCli(['build', valid, '--out', DEFAULT_SNAPSHOT]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`error: ${DEFAULT_SNAPSHOT} is the bundled sample snapshot: write your snapshot elsewhere (--out my-carriers.snapshot)\n`);
    expect(existsSync(DEFAULT_SNAPSHOT) ? statSync(DEFAULT_SNAPSHOT).mtimeMs : undefined).toBe(before);
  });

  it('names the path when a file cannot be read or written: a missing --zips, an --out that is a folder', async () => {
    const zips = join(root, 'no-such-US.txt');
    expect(await runCli(['validate', valid, '--zips', zips])).toEqual({ code: 1, stdout: '', stderr: `error: ${zips}: no such file or directory\n` });
    const folder = join(root, 'a-folder');
    mkdirSync(folder, { recursive: true });
    // Said before the dataset is checked and compiled (no progress line), not once they are done.
    expect(await runCli(['build', valid, '--out', folder])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${folder} names a folder, not a file: give the file's name too (--out ${folder}/my-carriers.snapshot)\n`,
    });
    expect(readdirSync(folder)).toEqual([]);
  });

  it('says what is wrong with an --out that cannot name a file, in words about the path given', async () => {
    const file = join(root, 'plain.snapshot');
    writeDataset(root, { 'plain.snapshot': 'not a folder' });
    const folder = join(root, 'out-folder');
    mkdirSync(folder, { recursive: true });
    const cases: [string, string][] = [
      // The bytes go to a temporary file beside it first: the error names the file asked for.
      ['/proc/x.snapshot', '/proc/x.snapshot: no such file or directory'],
      [join(file, 'sub.snapshot'), `${join(file, 'sub.snapshot')}: ${file} is a file, not a folder`],
      [join(file, 'a', 'sub.snapshot'), `${join(file, 'a', 'sub.snapshot')}: ${file} is a file, not a folder`],
      [`${folder}/`, `${folder}/ names a folder, not a file: give the file's name too (--out ${folder}/my-carriers.snapshot)`],
    ];
    for (const [out, message] of cases) {
      const run = await runCli(['build', valid, '--out', out]);
      expect([run.code, run.stdout, run.stderr.split('\n').filter((line) => !line.startsWith('['))]).toEqual([1, '', [`error: ${message}`, '']]);
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it('takes the ZIP file to compile against with --zips', async () => {
    const zips = join(root, 'US.txt');
    writeDataset(root, { 'US.txt': [gazetteerRow('75201', 'Elsewhere', 'TX', 30, -97), gazetteerRow('75202', 'Elsewhere', 'TX', 30.1, -97)].join('\n') });
    const out = join(root, 'zips.snapshot');
    expect((await runCli(['build', valid, '--out', out, '--zips', zips])).code).toBe(0);
    expect(createEngine({ snapshot: out }).geocode({ zip: '75201' }).location).toEqual({ city: 'Elsewhere', state: 'TX', lat: 30, lng: -97 });
    expect(createEngine({ snapshot: out }).geocode({ zip: '10001' }).found).toBe(false);
  });

  it('refuses a --zips file with no GeoNames US rows, exit 1', async () => {
    writeDataset(root, { 'hosts.txt': '127.0.0.1 localhost\n' });
    const zips = join(root, 'hosts.txt');
    for (const command of ['validate', 'build']) {
      const run = await runCli([command, valid, '--zips', zips, ...(command === 'build' ? ['--out', join(root, 'none.snapshot')] : [])]);
      expect([command, run.code, run.stdout]).toEqual([command, 1, '']);
      expect(run.stderr).toContain(`${zips}: no US ZIP rows: expected GeoNames' tab-separated US.txt`);
    }
    expect(existsSync(join(root, 'none.snapshot'))).toBe(false);
  });

  it('names a missing or empty --out or a missing dataset as bad usage, exit 2', async () => {
    const noOut = await runCli(['build', valid]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/^error: required option '--out <file>' not specified\n/);
    const emptyOut = await runCli(['build', valid, '--out', '']);
    expect(emptyOut.code).toBe(2);
    expect(emptyOut.stderr).toMatch(/^error: option '--out <file>' argument '' is invalid\. A path is required\.\n\(add --help for usage\)\n$/);
    const noDir = await runCli(['build', '--out', join(root, 'x.snapshot')]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/^error: missing required argument 'dataDir'\n/);
  });
});

describe('a dataset with errors, loaded by a look-up', () => {
  it('is its first error, as validate prints it less the level: one error: on the line, never a warning', async () => {
    const mixed = writeDataset(join(root, 'mixed'), {
      ...SMALL_DATASET,
      'terminals.csv': SMALL_DATASET['terminals.csv']
        .replace('Dallas,TX,75201', 'Dallas,OK,75201') // a warning, on line 2
        .replace('42.3576', '200'), // an error, on line 3
    });
    const findings = checkDataset(mixed).findings;
    expect(findings.map((f) => [f.line, f.level])).toEqual([[2, 'warning'], [3, 'error']]);
    const first = findings[1];
    for (const env of [{}, { DATA_DIR: mixed }]) {
      const run = await runCli(['geocode', '--zip', '10001', ...('DATA_DIR' in env ? [] : ['--data', mixed])], { env });
      expect(run).toEqual({ code: 1, stdout: '', stderr: `error: ${first.file}:${first.line}: ${first.message}\n` });
    }
  });

  it('a DATA_DIR that is no directory is said as --data says it', async () => {
    const missing = join(root, 'nowhere');
    const expected = { code: 1, stdout: '', stderr: `error: ${missing} is not a dataset directory\n` };
    expect(await runCli(['geocode', '--zip', '10001', '--data', missing])).toEqual(expected);
    expect(await runCli(['geocode', '--zip', '10001'], { env: { DATA_DIR: missing } })).toEqual(expected);
    expect(await runCli(['serve'], { env: { DATA_DIR: missing, API_KEYS: 'k:pro' } })).toEqual(expected);
    // SNAPSHOT_PATH wins over DATA_DIR: the directory is not read then.
    expect((await runCli(['geocode', '--zip', '10001'], { env: { DATA_DIR: missing, SNAPSHOT_PATH: DEFAULT_SNAPSHOT } })).code).toBe(0);
  });
});
