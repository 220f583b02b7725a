// The library's own arguments (createEngine's options, a batch's limit, serviceDays's clock,
// checkDataset's directory, compileDataset's and buildSnapshot's options) are checked as the queries
// are: a wrong one is an InvalidInputError that names it, never a silent default, a limit that is
// no limit, or an error from inside the engine.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../engine/index.js';
import { createEngine as createRuntimeEngine } from '../../engine/index.js';
import { buildSnapshot, checkDataset, compileDataset, createEngine, writeSnapshot } from '../../data/index.js';

const engine = createEngine();

/** The message of the InvalidInputError `call` throws. */
function invalid(call: () => unknown): string {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInputError);
    return (err as Error).message;
  }
  throw new Error('expected an InvalidInputError, but the call returned');
}

describe('createEngine options', () => {
  it('an empty or mistyped option is an error, not the sample loaded instead', () => {
    expect(invalid(() => createEngine({ snapshot: '' }))).toBe('snapshot must not be empty');
    expect(invalid(() => createEngine({ dataDir: '' }))).toBe('dataDir must not be empty');
    // A number would be read as a file descriptor.
    expect(invalid(() => createEngine({ snapshot: 5 as unknown as string }))).toBe('snapshot must be a file path (a string)');
    expect(invalid(() => createEngine(null as unknown as object))).toBe('options must be an object (got null)');
    expect(invalid(() => createEngine({ snapshotPath: 'x.snapshot' } as object))).toBe(
      'unknown option snapshotPath: the options are dataDir, zipFile, snapshot, load, onWarnings',
    );
    expect(invalid(() => createEngine({ load: 'later' } as object))).toBe('load must be "lazy" or "eager"');
    expect(invalid(() => createRuntimeEngine({ load: true } as object))).toBe('load must be "lazy" or "eager"');
  });

  it('a snapshot and a dataset directory together are an error, not one of them left unread', () => {
    const both = 'snapshot and dataDir (or zipFile) are two sources of data: give one';
    expect(invalid(() => createEngine({ snapshot: 'my.snapshot', dataDir: './my-carriers' }))).toBe(both);
    expect(invalid(() => createEngine({ snapshot: 'my.snapshot', zipFile: 'US.txt' }))).toBe(both);
  });

  it('an option left undefined is no option: the sample, as with none', () => {
    expect(createEngine({ snapshot: undefined, dataDir: undefined }).carriers.map((c) => c.id)).toEqual(engine.carriers.map((c) => c.id));
  });
});

describe("a batch's maxPerRequest", () => {
  const zips = Array.from({ length: 60 }, (_, i) => String(10001 + i));

  it('must be a whole number of at least 1: NaN and Infinity would lift the limit', () => {
    for (const maxPerRequest of [NaN, Infinity, 2.5, 0, -1]) {
      expect(invalid(() => engine.searchBatch({ zips }, { maxPerRequest }))).toBe('maxPerRequest must be a whole number of at least 1');
      expect(invalid(() => engine.carrierBatch('carrier-a', { zips }, { maxPerRequest }))).toBe('maxPerRequest must be a whole number of at least 1');
    }
    expect(invalid(() => engine.searchBatch({ zips }, { maxPerRequest: '5' as unknown as number }))).toBe('maxPerRequest must be a number');
  });

  it('a valid one is the limit, and without one the limit is 50', () => {
    expect(engine.searchBatch({ zips: zips.slice(0, 3) }, { maxPerRequest: 3 }).maxPerRequest).toBe(3);
    expect(invalid(() => engine.searchBatch({ zips: zips.slice(0, 4) }, { maxPerRequest: 3 }))).toBe(
      'zips[3] is over the limit: at most 3 entries per request (got 4)',
    );
    expect(engine.searchBatch({ zips: zips.slice(0, 50) }).maxPerRequest).toBe(50);
    expect(invalid(() => engine.searchBatch({ zips: zips.slice(0, 51) }))).toBe('zips[50] is over the limit: at most 50 entries per request (got 51)');
  });
});

describe("serviceDays's clock", () => {
  const ask = (now: unknown) => engine.serviceDays('carrier-a', { zip: '60601' }, { now: now as Date });

  it('must be a valid Date in the range a date query may name', () => {
    const range = 'now must be between 1970-01-01 and 2999-12-24, the dates a query may name';
    // The largest Date, a negative year (whose sign a date string would lose), and one past the range.
    for (const now of [new Date(8.64e15), new Date(-2e14), new Date('3000-06-01T00:00:00Z'), new Date('1969-12-31T23:59:59Z')]) {
      expect(invalid(() => ask(now))).toBe(range);
    }
    for (const now of [new Date(NaN), '2026-11-23', 1_764_000_000_000]) expect(invalid(() => ask(now))).toBe('now must be a valid Date');
  });

  it('a Date in range is the clock: the next service day after that day where the ZIP is', () => {
    // Tuesday 24 November 2026, 03:00 UTC: still Monday the 23rd in Chicago.
    const next = ask(new Date('2026-11-24T03:00:00Z'));
    expect(next.nextPickupDate! > '2026-11-23').toBe(true);
    expect(next.nextPickupDate! <= '2026-11-30').toBe(true);
    // Asked for that date by another clock, the answer is the same but for pickupToday (null: not today there).
    expect(typeof next.pickupToday).toBe('boolean');
    expect(engine.serviceDays('carrier-a', { zip: '60601', date: '2026-11-23' })).toEqual({ ...next, pickupToday: null });
  });
});

describe('a query that is not an object', () => {
  it('says so, naming what it got', () => {
    expect(invalid(() => engine.search(undefined as never))).toBe('the query must be an object (got undefined)');
    expect(invalid(() => engine.geocode(null as never))).toBe('the query must be an object (got null)');
    expect(invalid(() => engine.carrierLocations('carrier-a', 'zip=60601' as never))).toBe('the query must be an object (got string)');
  });
});

describe("checkDataset's arguments", () => {
  it('a directory that is not a path, and a wrong option, are invalid input; the dataset findings stay findings', () => {
    expect(invalid(() => checkDataset(5 as unknown as string))).toBe('dir must be the path of a dataset directory (a string)');
    expect(invalid(() => checkDataset(''))).toBe('dir must be the path of a dataset directory, not empty');
    expect(invalid(() => checkDataset('/nope', null as never))).toBe('options must be an object (got null)');
    expect(checkDataset('/nope/dataset').findings.map((f) => f.message)).toEqual([
      'is not a dataset directory (a folder of carriers.json, terminals.csv and service-points.csv)',
    ]);
  });
});

describe("compileDataset's and buildSnapshot's options", () => {
  const EXAMPLE = 'data/examples/carrier-file';
  const mapping = join(EXAMPLE, 'mapping.json');
  const out = mkdtempSync(join(tmpdir(), 'compile-options-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('a typo or a wrong value is invalid input, not a build without it', () => {
    expect(invalid(() => buildSnapshot(join(out, 'x.snapshot'), { dataDir: EXAMPLE, zipfile: '/nope' } as object))).toBe(
      'unknown option zipfile: the options are dataDir, mapping, zipFile, dataset, gazetteer, onWarnings',
    );
    expect(invalid(() => compileDataset({ dataDir: '' }))).toBe('dataDir must not be empty');
    expect(invalid(() => compileDataset({ dataset: 'my-carriers' as never }))).toBe('dataset must be the dataset checkDataset(dir) returns');
    const { dataset } = checkDataset(EXAMPLE, { mapping });
    expect(invalid(() => compileDataset({ dataset, mapping }))).toBe(
      'dataset is a dataset already read (with its mapping): give it without mapping',
    );
  });

  it('an out that is not a path is invalid input, before anything is compiled or written', () => {
    for (const build of [(o: unknown) => buildSnapshot(o as string, { dataDir: EXAMPLE }), (o: unknown) => writeSnapshot(o as string, {} as never)]) {
      expect(invalid(() => build(''))).toBe('out must be the path of the snapshot file to write, not empty');
      expect(invalid(() => build(5))).toBe('out must be the path of the snapshot file to write (a string)');
      expect(invalid(() => build(undefined))).toBe('out must be the path of the snapshot file to write (a string)');
    }
    expect(invalid(() => buildSnapshot(join(out, 'x.snapshot'), null as never))).toBe('options must be an object (got null)');
  });

  it("takes checkDataset's answer as it is typed; a dataset with errors (null) is refused as such", () => {
    const broken = checkDataset(join(out, 'no-such-dataset'));
    expect(broken.dataset).toBeNull();
    expect(invalid(() => buildSnapshot(join(out, 'broken.snapshot'), { dataset: broken.dataset, gazetteer: broken.gazetteer }))).toBe(
      'dataset is null: the dataset checkDataset(dir) read has errors, listed in its findings; fix them and check it again',
    );
  });

  it("mapping reads the carrier's own points file, as checkDataset's does", () => {
    const mapped = join(out, 'mapped.snapshot');
    buildSnapshot(mapped, { dataDir: EXAMPLE, mapping });
    // Galveston is served only in the carrier's own file (ridgeline-points.csv), from Houston.
    expect(createEngine({ snapshot: mapped }).serviceDays('ridgeline-freight', { zip: '77550', date: '2026-11-25' })).toMatchObject({
      served: true, terminalCode: 'HOU',
    });
    const plain = join(out, 'plain.snapshot');
    buildSnapshot(plain, { dataDir: EXAMPLE });
    expect(createEngine({ snapshot: plain }).serviceDays('ridgeline-freight', { zip: '77550', date: '2026-11-25' }).served).toBe(false);
    // The same file as from the dataset checkDataset read with the mapping.
    const checked = checkDataset(EXAMPLE, { mapping });
    const fromCheck = join(out, 'from-check.snapshot');
    buildSnapshot(fromCheck, { dataset: checked.dataset, gazetteer: checked.gazetteer });
    expect(readFileSync(mapped).equals(readFileSync(fromCheck))).toBe(true);
  });
});

describe("the engine's carrier list", () => {
  it('cannot be changed by a caller: neither the list nor its entries', () => {
    const other = createEngine();
    expect(() => (other.carriers as unknown as object[]).push({})).toThrow(TypeError);
    expect(() => Object.assign(other.carriers[0], { unified: false })).toThrow(TypeError);
    expect(other.carriers).toHaveLength(engine.carriers.length);
  });
});
