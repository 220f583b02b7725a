// The snapshot file's format, declared once: the build (data/) writes it, the engine reads it.
// A file is a 32-byte header, a JSON manifest, then 8-byte aligned sections: typed arrays stored as
// their bytes; a table's string column as its strings' UTF-8 and where each starts (when repetitive,
// its distinct strings and each row's index into them), so that the reader decodes one row at a
// time; any other list of strings as NUL-joined UTF-8. The manifest is the SnapshotContent
// below with each typed array and string column replaced by its Section. The header's CRC-32
// covers the manifest, and each section's (in the manifest) its bytes: a reader can read and check
// a section alone, when a query first needs it.

import type { CarrierInfo } from './carriers.js';

/** The strings of a table column: `at(row)` for 0 <= row < length (string-column.ts reads a snapshot's). */
export interface StringColumn {
  readonly length: number;
  at(row: number): string;
}

export const SNAPSHOT_MAGIC = 'CLSNAP01';
/** Raised whenever a table's layout or the file's layout changes: an older reader then refuses the file. */
export const SNAPSHOT_VERSION = 7;
/** magic (8), version (4), manifest length (4), sections length (8, a float64), CRC-32 of the manifest and its padding (4), padding (4) */
export const HEADER_BYTES = 32;
export const HEADER = { version: 8, manifestLength: 12, sectionsLength: 16, crc32: 24 } as const;
/** Sections start at multiples of this, so that a typed array can be a view on the file's bytes. */
export const SECTION_ALIGN = 8;

export type TypedArray = Int32Array | Uint32Array | Uint8Array | Float64Array | Uint16Array | Int16Array | Float32Array;
export const TYPED_ARRAYS: Record<string, { new (buffer: ArrayBuffer, offset: number, length: number): TypedArray; readonly BYTES_PER_ELEMENT: number }> = {
  Int32Array, Uint32Array, Uint8Array, Float64Array, Uint16Array, Int16Array, Float32Array,
};

/**
 * A typed array's place in the file: its constructor's name, offset from the first section,
 * elements, and the CRC-32 of its bytes with the padding after them.
 */
export interface TypedSection {
  type: string;
  offset: number;
  length: number;
  crc32: number;
}

/** A string column's strings come in blocks of 2^COLUMN_BLOCK_BITS, each checked (and read lazily) alone. */
export const COLUMN_BLOCK_BITS = 10;
/** The strings of a block: 2^COLUMN_BLOCK_BITS (the last block of a column may hold fewer). */
export const COLUMN_BLOCK_ROWS = 1 << COLUMN_BLOCK_BITS;

/**
 * What the manifest holds in place of a typed array or a list of strings; offsets from the first
 * section. 'strings': NUL-joined UTF-8 of `length` strings. 'column': a table's string column:
 * `length` strings' UTF-8 back to back, string i at rowOffsets[i] .. rowOffsets[i + 1]; these are
 * the rows, or, when the column has `refs`, its distinct strings, row r being string refs[r].
 * A column without refs has `blockCrcs`: per block b of strings (b * 2^COLUMN_BLOCK_BITS to e, at
 * most that many), the CRC-32 of rowOffsets[b * 2^COLUMN_BLOCK_BITS .. e] (inclusive, as stored)
 * followed by those strings' UTF-8, so that a reader can read and check one block alone.
 */
export interface Section {
  $section: 'typed' | 'strings' | 'column';
  /** A typed array's constructor name. */
  type?: string;
  offset: number;
  /** Elements of a typed array; strings of a list; rows of a column, or its distinct strings when it has refs. */
  length: number;
  /** Bytes of the UTF-8. */
  bytes?: number;
  /** CRC-32 of the section's bytes (a column's UTF-8) with the padding after them. */
  crc32: number;
  rowOffsets?: TypedSection;
  refs?: TypedSection;
  blockCrcs?: TypedSection;
}

/**
 * A compiled dataset: what a snapshot file holds. The engine reads string columns a row at a time
 * (StringColumn); the build makes and writes them as arrays (CompiledContent).
 */
export interface SnapshotContent<Strings = StringColumn> {
  gazetteer: GazetteerTable<Strings>;
  network: NetworkTable<Strings>;
  /** What each ZIP's queries read instead of working out. */
  zips: ZipTables;
  timeZones: TimeZoneTables;
}

/** What the build compiles and writes: the snapshot's tables with their string columns as arrays. */
export type CompiledContent = SnapshotContent<string[]>;

/** The GeoNames postal-code file as flat columns: ZIP points, and the places (city + state) and states they make up. */
export interface GazetteerTable<Strings = StringColumn> {
  /** 5-digit ZIPs as numbers, ascending. */
  zipCodes: Int32Array;
  zipLat: Float64Array;
  zipLng: Float64Array;
  /** Place of each ZIP. */
  zipPlace: Uint32Array;
  placeNames: Strings;
  placeKeys: Strings;
  placeState: Uint8Array;
  placeLat: Float64Array;
  placeLng: Float64Array;
  /** ZIPs of place p are placeZips[placeZipStart[p] .. placeZipStart[p + 1]). */
  placeZipStart: Uint32Array;
  placeZips: Uint32Array;
  stateCodes: Strings;
  stateLat: Float64Array;
  stateLng: Float64Array;
}

/** Service days as bits: bit d set for DAY_LETTERS[d] (Monday = bit 0). */
export const DAY_LETTERS = 'MTWRFSU';

/**
 * The carriers' networks as flat columns: locations numbered by carrier id, then terminal code (the
 * order ranking relies on), the points-served table sorted by ZIP, and serialized kdbush indexes.
 */
export interface NetworkTable<Strings = StringColumn> {
  carriers: CarrierInfo[];
  /** Locations of carrier c are [carrierLocStart[c], carrierLocStart[c + 1]), sorted by terminal code. */
  carrierLocStart: Uint32Array;
  locCarrier: Uint8Array;
  locCode: Strings;
  locName: Strings;
  locLine1: Strings;
  locLine2: Strings;
  locCity: Strings;
  locState: Strings;
  locZip: Strings;
  locCountry: Strings;
  locPhone: Strings;
  locFax: Strings;
  locEmail: Strings;
  locRegion: Strings;
  locLat: Float64Array;
  locLng: Float64Array;
  /** Locations ordered by ZIP: locByZipKey ascending, locByZipId the location. US locations only. */
  locByZipKey: Int32Array;
  locByZipId: Uint32Array;

  /** Points served, sorted by ZIP, then carrier, then city. */
  spZip: Int32Array;
  spCarrier: Uint8Array;
  spCity: Strings;
  spState: Strings;
  /** Serving location (index into the loc* columns). */
  spTerminal: Uint32Array;
  spDirect: Uint8Array;
  /** Bit d set when the point is served on DAY_LETTERS[d] (Monday = bit 0). */
  spDays: Uint8Array;
  spAddOn: Uint8Array;
  // The point attributes of carriers' own files: each column is empty (length 0) when no point has
  // a value, so that a dataset without them (the sample) carries no bytes for them.
  /** Pickup cutoff in minutes after local midnight, -1 when none is stated. */
  spCutoff: Int16Array;
  /** 1 for a high-cost point. */
  spHighCost: Uint8Array;
  spHighCostNote: Strings;
  /** The interline partner's SCAC, '' for none (always for a direct point). */
  spInterline: Strings;
  /** Points served by location l: termSp[termSpStart[l] .. termSpStart[l + 1]), by ZIP. */
  termSpStart: Uint32Array;
  termSp: Uint32Array;

  /** kdbush data of each carrier's locations (item i = location carrierLocStart[c] + i). */
  carrierIndexData: Uint8Array[];
  /** kdbush data over the locations of every unified carrier, of node size UNIFIED_INDEX_NODE_SIZE; item i = location unifiedLoc[i]. */
  unifiedIndexData: Uint8Array;
  unifiedLoc: Uint32Array;
}

/**
 * The IANA time zone of each gazetteer ZIP and each location, worked out at build time from their
 * points: dated answers (a shipper's today, a pickup cutoff) read them.
 */
export interface TimeZoneTables {
  /** Zone names, such as America/Chicago. */
  names: string[];
  /** Per gazetteer ZIP row, its zone's index in names. */
  zip: Uint16Array;
  /** Per location, its zone's index in names. */
  location: Uint16Array;
}

/**
 * The unified index's leaves: every unified query walks it, and a radius walk scans whole leaves;
 * kdbush's default of 64 points is several times the hits of a query on a small, busy index.
 */
export const UNIFIED_INDEX_NODE_SIZE = 16;

/** A ZIP's entry in `nearest` when the carrier has no location at all. */
export const NO_LOCATION = 0xffffffff;

/**
 * Facts about each ZIP of the gazetteer that no query changes, worked out at build time: its exact
 * matches, and the nearest location of each can-reach carrier at any distance.
 */
export interface ZipTables {
  /** Exact matches of gazetteer ZIP row z: entries exactStart[z] .. exactStart[z + 1]. */
  exactStart: Uint32Array;
  exactLoc: Uint32Array;
  /** Per carrier number, its nearest location to each ZIP row; empty for the carriers can-reach does not accept. */
  nearest: Uint32Array[];
}

/** The fields of T that are string columns. */
type ColumnsOf<T> = { [K in keyof T]: T[K] extends StringColumn ? K : never }[keyof T];

/**
 * Which fields of each table are string columns, for the writer (the types above say it for the
 * compiler; the Records make the two agree: a column missing here does not compile).
 */
export const STRING_COLUMNS: { gazetteer: Record<ColumnsOf<GazetteerTable>, true>; network: Record<ColumnsOf<NetworkTable>, true> } = {
  gazetteer: { placeNames: true, placeKeys: true, stateCodes: true },
  network: {
    locCode: true, locName: true, locLine1: true, locLine2: true, locCity: true, locState: true, locZip: true, locCountry: true,
    locPhone: true, locFax: true, locEmail: true, locRegion: true, spCity: true, spState: true, spHighCostNote: true, spInterline: true,
  },
};

/** The tables every snapshot holds. */
const TABLES = ['gazetteer', 'network', 'zips', 'timeZones'] as const satisfies readonly (keyof SnapshotContent)[];

/**
 * What content lacks of a snapshot's: the first table that is not there (or not an object), or
 * string column of one (`network`, `gazetteer.stateCodes`); undefined when it has them all. The
 * writer refuses such content, and the loader such a manifest.
 */
export function missingPart(content: unknown): string | undefined {
  for (const table of TABLES) {
    const fields: unknown = (content as Record<string, unknown> | null | undefined)?.[table];
    if (typeof fields !== 'object' || fields === null) return table;
    const columns = table === 'gazetteer' || table === 'network' ? STRING_COLUMNS[table] : {};
    for (const column in columns) if (!(column in fields)) return `${table}.${column}`;
  }
  return undefined;
}
