// Where createEngine() looks for the bundled sample, and what it says when the sample is not there:
// engine/package-files.ts copied into folders laid out as a clone is, with and without the sample's
// dataset and its built snapshot.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'package-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder laid out as a clone (package.json, engine/package-files.ts), with the parts asked for. */
async function cloneWith(name: string, parts: { sampleDataset: boolean; sampleSnapshot: boolean }) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'engine'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"name":"carrier-locations","type":"module"}');
  // With the errors it throws.
  for (const file of ['package-files.ts', 'errors.ts']) copyFileSync(join(import.meta.dirname, '..', '..', 'engine', file), join(dir, 'engine', file));
  if (parts.sampleDataset) mkdirSync(join(dir, 'data', 'sample'), { recursive: true });
  if (parts.sampleSnapshot) {
    mkdirSync(join(dir, 'data', 'build'), { recursive: true });
    writeFileSync(join(dir, 'data', 'build', 'sample.snapshot'), '');
  }
  return (await import(pathToFileURL(join(dir, 'engine', 'package-files.ts')).href)) as typeof import('../../engine/package-files.js');
}

describe('the bundled sample', () => {
  it('is found where a clone builds it', async () => {
    const files = await cloneWith('built', { sampleDataset: true, sampleSnapshot: true });
    expect(files.sampleSnapshot()).toBe(join(root, 'built', 'data', 'build', 'sample.snapshot'));
  });

  it('not built yet in a clone: the message says how to build it', async () => {
    const files = await cloneWith('unbuilt', { sampleDataset: true, sampleSnapshot: false });
    expect(files.sampleSnapshot()).toBeNull();
    expect(files.missingSampleSnapshot().message).toBe(
      `no snapshot given, and the bundled sample is not built yet (${join(root, 'unbuilt', 'data', 'build', 'sample.snapshot')}): ` +
        'in a clone, `npm run build && npm run data:build` builds it (`npm install` does both)',
    );
  });

  it('an installed package has no sample dataset to compile: no dataDir is invalid input', async () => {
    const files = await cloneWith('installed', { sampleDataset: false, sampleSnapshot: true });
    // The copy's own InvalidInputError, which is not the repository's class: known by its name and status.
    expect(() => files.defaultDataDir()).toThrow(
      expect.objectContaining({ name: 'InvalidInputError', status: 400, message: expect.stringMatching(/^no dataDir given, and the sample dataset it defaults to is not installed/) }),
    );
  });

  it('away from the package (an application bundle): the message says to pass a snapshot', async () => {
    const files = await cloneWith('bundled', { sampleDataset: false, sampleSnapshot: false });
    expect(files.missingSampleSnapshot().message).toMatch(/^no snapshot given, and the bundled sample is not at .*: an application bundle .* Pass createEngine\(\{ snapshot \}\)/);
  });
});
