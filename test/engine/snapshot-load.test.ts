// A snapshot read lazily (each table's section when first used) against what the build compiled:
// every field of every table, every row of every string column; engines on the lazy and the eager
// read answer alike; the file stays open while a section is unread and is closed once all are.
// Damaged files, both ways: dataset.test.ts.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDataset } from '../../data/index.js';
import { writeSnapshot } from '../../data/snapshot-writer.js';
import { createEngine } from '../../engine/index.js';
import { readSnapshot } from '../../engine/snapshot.js';
import type { CompiledContent, StringColumn } from '../../engine/snapshot-format.js';
import { releaseStableSampleDir, stableSampleDir, ZIP_FILE } from './oracle.js';

let compiled: CompiledContent;
let dir: string;
let file: string;

beforeAll(() => {
  compiled = compileDataset({ dataDir: stableSampleDir(), zipFile: ZIP_FILE });
  dir = mkdtempSync(join(tmpdir(), 'snapshot-load-'));
  file = join(dir, 'sample.snapshot');
  writeSnapshot(file, compiled);
});
afterAll(() => {
  releaseStableSampleDir();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * What a field holds, in a form toEqual compares quickly: a typed array as its type and bytes, a
 * string column as its rows in JSON. (toEqual walks an array element by element, which over every
 * column of the sample took seconds.)
 */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? JSON.stringify(value) : value.map(plain);
  if (ArrayBuffer.isView(value)) return `${value.constructor.name} ${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')}`;
  if (value !== null && typeof value === 'object' && 'at' in value) {
    const column = value as StringColumn;
    return JSON.stringify(Array.from({ length: column.length }, (_, row) => column.at(row)));
  }
  return value;
}

/** Open file descriptors of this process (Linux). */
const openFiles = () => readdirSync('/proc/self/fd').length;

describe('a lazily read snapshot', () => {
  it('holds every field of every table as the build compiled it', () => {
    const lazy = readSnapshot(file, 'lazy') as unknown as Record<string, Record<string, unknown>>;
    const built = compiled as unknown as Record<string, Record<string, unknown>>;
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(built).sort());
    for (const [table, fields] of Object.entries(built)) {
      // A lazy table's fields are getters on its prototype: `in` and for-in see them.
      const lazyFields: string[] = [];
      for (const field in lazy[table]) lazyFields.push(field);
      expect(lazyFields.sort(), table).toEqual(Object.keys(fields).sort());
      for (const [field, value] of Object.entries(fields)) expect(plain(lazy[table][field]), `${table}.${field}`).toEqual(plain(value));
    }
  });

  it('answers as an engine on the same file read whole', () => {
    const lazy = createEngine({ snapshot: file });
    const eager = createEngine({ snapshot: file, load: 'eager' });
    const zips = Array.from(compiled.gazetteer.zipCodes.filter((_, row) => row % 211 === 0), (code) => String(code).padStart(5, '0'));
    expect(zips.length).toBeGreaterThan(100);
    const reachable = eager.carriers.filter((c) => c.canReach).map((c) => c.id);
    expect(reachable.length).toBeGreaterThan(0);
    for (const zip of zips) {
      expect(lazy.search({ zip }), zip).toEqual(eager.search({ zip }));
      for (const carrier of reachable) expect(lazy.canReach({ zip, carrier }), zip).toEqual(eager.canReach({ zip, carrier }));
    }
    for (const carrier of eager.carriers) {
      const query = { [carrier.lookup]: carrier.lookup === 'zip' ? zips[3] : carrier.lookup === 'state' ? 'TX' : 'US' };
      let expected: unknown;
      try {
        expected = eager.carrierLocations(carrier.id, query);
      } catch (err) {
        expected = err;
      }
      if (expected instanceof Error) expect(() => lazy.carrierLocations(carrier.id, query)).toThrow(expected.message);
      else expect(lazy.carrierLocations(carrier.id, query), carrier.id).toEqual(expected);
    }
  });

  it("says which carriers serve points, as the build's points-served table has them", () => {
    const withPoints = new Set(compiled.network.spCarrier);
    const carriers = createEngine({ snapshot: file }).carriers;
    expect(carriers.some((c) => c.pointsServed) && carriers.some((c) => !c.pointsServed)).toBe(true);
    for (const [c, carrier] of carriers.entries()) expect(carrier.pointsServed, carrier.id).toBe(withPoints.has(c));
  });

  it('keeps its file open while a section or block of strings is unread, and closes it once every one is read', () => {
    const before = openFiles();
    const lazy = readSnapshot(file, 'lazy') as unknown as Record<string, Record<string, unknown>>;
    expect(openFiles()).toBe(before + 1);
    void lazy.gazetteer.zipCodes;
    expect(openFiles()).toBe(before + 1);
    for (const table of Object.values(lazy)) for (const field in table) void table[field];
    // A column of many distinct strings is read a block of rows at a time: the file stays open for them.
    expect(openFiles()).toBe(before + 1);
    for (const table of Object.values(lazy)) for (const field in table) plain(table[field]);
    expect(openFiles()).toBe(before);
    // Read again, a field answers from memory.
    expect(plain(lazy.network.locName)).toEqual(plain(compiled.network.locName));
  });

  it('read eagerly, holds no file open', () => {
    const before = openFiles();
    readSnapshot(file, 'eager');
    expect(openFiles()).toBe(before);
  });
});
