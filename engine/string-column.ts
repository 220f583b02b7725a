// A table's column of strings, read a row at a time. A snapshot's columns stay UTF-8 bytes: a row
// is decoded when an answer first needs it and kept, so a process pays in time and memory for the
// rows it answers with, not for every row of every column it touches. A lazily read snapshot reads
// a column's bytes a block of rows at a time, too.

import { COLUMN_BLOCK_BITS, COLUMN_BLOCK_ROWS, type StringColumn } from './snapshot-format.js';

const BLOCK_MASK = COLUMN_BLOCK_ROWS - 1;

/**
 * The UTF-8 of a block of strings: string i of the block at offsets[i] - base .. offsets[i + 1] - base
 * of `utf8` (offsets as the file stores them, from the start of the column's bytes).
 */
export interface StringBlock {
  utf8: Buffer;
  offsets: Uint32Array;
  base: number;
}

/** The column's strings in memory: every block a view on them. */
export function wholeBlocks(utf8: Buffer, offsets: Uint32Array): (block: number) => StringBlock {
  return (block) => ({ utf8, offsets: offsets.subarray(block * COLUMN_BLOCK_ROWS, Math.min((block + 1) * COLUMN_BLOCK_ROWS, offsets.length - 1) + 1), base: 0 });
}

/**
 * The rows of a snapshot column: `count` strings, block b (strings b * 2^COLUMN_BLOCK_BITS on) read
 * by `readBlock` when one of its strings is first read. When `refs` is given (a repetitive column:
 * states, cities), these are its distinct strings and row r reads distinct string refs[r].
 */
export class SnapshotStrings implements StringColumn {
  /**
   * Decoded strings by block. Blocks rather than one array of every row: making a packed array of
   * a large column costs milliseconds a cold start would pay for a handful of rows, and a holey one
   * of 100,000 or more elements is a dictionary, which every warm read would pay for.
   */
  private readonly decoded: (string | undefined)[][] = [];
  private readonly bytes: (StringBlock | undefined)[] = [];

  constructor(
    private readonly count: number,
    private readonly readBlock: (block: number) => StringBlock,
    private readonly refs?: Uint16Array | Uint32Array,
  ) {}

  get length(): number {
    return this.refs ? this.refs.length : this.count;
  }

  at(row: number): string {
    const s = this.refs ? this.refs[row] : row;
    const b = s >>> COLUMN_BLOCK_BITS;
    const strings = (this.decoded[b] ??= new Array<string | undefined>(COLUMN_BLOCK_ROWS));
    return (strings[s & BLOCK_MASK] ??= this.decode(b, s & BLOCK_MASK));
  }

  private decode(b: number, i: number): string {
    const { utf8, offsets, base } = (this.bytes[b] ??= this.readBlock(b));
    return utf8.toString('utf8', offsets[i] - base, offsets[i + 1] - base);
  }
}

/** The column of an array: what the build queries before it writes a snapshot. */
export function arrayColumn(values: readonly string[]): StringColumn {
  return { length: values.length, at: (row) => values[row] };
}
