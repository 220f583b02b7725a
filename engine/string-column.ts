// A table's column of strings, read a row at a time. A snapshot's columns stay UTF-8 bytes in the
// file's buffer: a row is decoded when an answer first needs it and kept, so a process pays in time
// and memory for the rows it answers with, not for every row of every column it touches.

/** The strings of a table column: `at(row)` for 0 <= row < length. */
export interface StringColumn {
  readonly length: number;
  at(row: number): string;
}

/** Decoded rows are kept in blocks of this many, each made when one of its rows is first read. */
const BLOCK_BITS = 10;
const BLOCK_MASK = (1 << BLOCK_BITS) - 1;

/**
 * The rows of a snapshot column: UTF-8 bytes, row r at offsets[r] .. offsets[r + 1]. When `refs` is
 * given (a repetitive column: states, cities), these are its distinct strings and row r reads
 * distinct string refs[r].
 */
export class SnapshotStrings implements StringColumn {
  /**
   * Decoded strings by block. Blocks rather than one array of every row: making a packed array of
   * a large column costs milliseconds a cold start would pay for a handful of rows, and a holey one
   * of 100,000 or more elements is a dictionary, which every warm read would pay for.
   */
  private readonly blocks: (string | undefined)[][] = [];

  constructor(
    private readonly bytes: Buffer,
    private readonly offsets: Uint32Array,
    private readonly refs?: Uint16Array | Uint32Array,
  ) {}

  get length(): number {
    return this.refs ? this.refs.length : this.offsets.length - 1;
  }

  at(row: number): string {
    const s = this.refs ? this.refs[row] : row;
    const block = (this.blocks[s >>> BLOCK_BITS] ??= new Array<string | undefined>(BLOCK_MASK + 1));
    return (block[s & BLOCK_MASK] ??= this.bytes.toString('utf8', this.offsets[s], this.offsets[s + 1]));
  }
}

/** The column of an array: what the build queries before it writes a snapshot. */
export function arrayColumn(values: readonly string[]): StringColumn {
  return { length: values.length, at: (row) => values[row] };
}
