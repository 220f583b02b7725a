// A snapshot's string columns read back row by row: every row of every table column of the compiled
// sample, against the arrays the build wrote (the sample has non-ASCII names, empty fields and
// repetitive columns, so each way a column is stored is read); rows read in any order; a row read
// alone from a column no other row of which was read.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDataset } from '../../data/index.js';
import { encodeSnapshot } from '../../data/snapshot-writer.js';
import { decodeSnapshot } from '../../engine/snapshot.js';
import { STRING_COLUMNS, type CompiledContent, type SnapshotContent, type StringColumn } from '../../engine/snapshot-format.js';
import { releaseStableSampleDir, stableSampleDir, ZIP_FILE } from './oracle.js';

let compiled: CompiledContent;
let bytes: Uint8Array;

beforeAll(() => {
  compiled = compileDataset({ dataDir: stableSampleDir(), zipFile: ZIP_FILE });
  bytes = encodeSnapshot(compiled);
});
afterAll(() => releaseStableSampleDir());

/** Each table column: its name, the compiled array, and the column a fresh decode of the file reads. */
function columns(loaded: SnapshotContent): { name: string; rows: string[]; column: StringColumn }[] {
  return (['gazetteer', 'network'] as const).flatMap((table) =>
    Object.keys(STRING_COLUMNS[table]).map((name) => ({
      name: `${table}.${name}`,
      rows: (compiled[table] as unknown as Record<string, string[]>)[name],
      column: (loaded[table] as unknown as Record<string, StringColumn>)[name],
    })),
  );
}

describe('snapshot string columns', () => {
  it('read every row as the build wrote it, non-ASCII and empty strings included', () => {
    const all = columns(decodeSnapshot(bytes));
    const everyString = all.flatMap((c) => c.rows);
    // What the check below covers: strings of more than one UTF-8 byte a character, and empty rows.
    expect(everyString.some((s) => /[^\x00-\x7f]/.test(s))).toBe(true);
    expect(everyString.some((s) => s === '')).toBe(true);
    for (const { name, rows, column } of all) {
      expect(column.length, name).toBe(rows.length);
      const wrong = rows.flatMap((row, r) => (column.at(r) === row ? [] : [`${name}[${r}]: ${JSON.stringify(column.at(r))} != ${JSON.stringify(row)}`]));
      expect(wrong.slice(0, 5), name).toEqual([]);
    }
  });

  it('read a row alone, and rows in any order, the same', () => {
    for (const { name, rows } of columns(decodeSnapshot(bytes))) {
      if (rows.length === 0) continue;
      // A fresh decode per column: the row read first is read before any other of its column.
      const last = rows.length - 1;
      const { column } = columns(decodeSnapshot(bytes)).find((c) => c.name === name)!;
      expect(column.at(last), name).toBe(rows[last]);
      for (let r = last; r >= 0; r -= Math.max(1, Math.floor(rows.length / 97))) expect(column.at(r), `${name}[${r}]`).toBe(rows[r]);
      expect(column.at(0), name).toBe(rows[0]);
    }
  });
});
