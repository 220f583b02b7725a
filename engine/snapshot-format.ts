// The snapshot file's format, declared once: the build (data/) writes it, the engine reads it.
// A file is a 32-byte header, a JSON manifest, then 8-byte aligned sections: typed arrays stored as
// their bytes, string columns as NUL-joined UTF-8 (dictionary-coded when repetitive). The manifest
// is the SnapshotContent below with each typed array and string column replaced by its Section.

import type { CarrierInfo } from './carriers.js';

export const SNAPSHOT_MAGIC = 'CLSNAP01';
/** Raised whenever a table's layout or the file's layout changes: an older reader then refuses the file. */
export const SNAPSHOT_VERSION = 5;
/** magic (8), version (4), manifest length (4), sections length (8, a float64), CRC-32 of the rest (4), padding (4) */
export const HEADER_BYTES = 32;
export const HEADER = { version: 8, manifestLength: 12, sectionsLength: 16, crc32: 24 } as const;
/** Sections start at multiples of this, so that a typed array can be a view on the file's bytes. */
export const SECTION_ALIGN = 8;

export type TypedArray = Int32Array | Uint32Array | Uint8Array | Float64Array | Uint16Array | Int16Array | Float32Array;
export const TYPED_ARRAYS: Record<string, new (buffer: ArrayBuffer, offset: number, length: number) => TypedArray> = {
  Int32Array, Uint32Array, Uint8Array, Float64Array, Uint16Array, Int16Array, Float32Array,
};

/** What the manifest holds in place of a typed array or a string column; offsets from the first section. */
export interface Section {
  $section: 'typed' | 'strings';
  /** A typed array's constructor name. */
  type?: string;
  offset: number;
  /** Elements of a typed array; distinct strings of a string column. */
  length: number;
  /** Bytes of a string column's UTF-8. */
  bytes?: number;
  /** A dictionary-coded column: each row's index into the distinct strings. */
  refs?: { type: string; offset: number; length: number };
}

/** A compiled dataset: what a snapshot file holds. */
export interface SnapshotContent {
  gazetteer: GazetteerTable;
  network: NetworkTable;
  /** What each ZIP's queries read instead of working out. */
  zips: ZipTables;
}

/** The GeoNames postal-code file as flat columns: ZIP points, and the places (city + state) and states they make up. */
export interface GazetteerTable {
  /** 5-digit ZIPs as numbers, ascending. */
  zipCodes: Int32Array;
  zipLat: Float64Array;
  zipLng: Float64Array;
  /** Place of each ZIP. */
  zipPlace: Uint32Array;
  placeNames: string[];
  placeKeys: string[];
  placeState: Uint8Array;
  placeLat: Float64Array;
  placeLng: Float64Array;
  /** ZIPs of place p are placeZips[placeZipStart[p] .. placeZipStart[p + 1]). */
  placeZipStart: Uint32Array;
  placeZips: Uint32Array;
  stateCodes: string[];
  stateLat: Float64Array;
  stateLng: Float64Array;
}

/** Service days as bits: bit d set for DAY_LETTERS[d] (Monday = bit 0). */
export const DAY_LETTERS = 'MTWRFSU';

/**
 * The carriers' networks as flat columns: locations numbered by carrier id, then terminal code (the
 * order ranking relies on), the points-served table sorted by ZIP, and serialized kdbush indexes.
 */
export interface NetworkTable {
  carriers: CarrierInfo[];
  /** Locations of carrier c are [carrierLocStart[c], carrierLocStart[c + 1]), sorted by terminal code. */
  carrierLocStart: Uint32Array;
  locCarrier: Uint8Array;
  locCode: string[];
  locName: string[];
  locLine1: string[];
  locLine2: string[];
  locCity: string[];
  locState: string[];
  locZip: string[];
  locCountry: string[];
  locPhone: string[];
  locFax: string[];
  locEmail: string[];
  locRegion: string[];
  locLat: Float64Array;
  locLng: Float64Array;
  /** Locations ordered by ZIP: locByZipKey ascending, locByZipId the location. US locations only. */
  locByZipKey: Int32Array;
  locByZipId: Uint32Array;

  /** Points served, sorted by ZIP, then carrier, then city. */
  spZip: Int32Array;
  spCarrier: Uint8Array;
  spCity: string[];
  spState: string[];
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
  spHighCostNote: string[];
  /** The interline partner's SCAC, '' for none (always for a direct point). */
  spInterline: string[];
  /** Points served by location l: termSp[termSpStart[l] .. termSpStart[l + 1]), by ZIP. */
  termSpStart: Uint32Array;
  termSp: Uint32Array;

  /** kdbush data of each carrier's locations (item i = location carrierLocStart[c] + i). */
  carrierIndexData: Uint8Array[];
  /** kdbush data over the locations of every unified carrier; item i = location unifiedLoc[i]. */
  unifiedIndexData: Uint8Array;
  unifiedLoc: Uint32Array;
}

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
  /** Great-circle miles from the ZIP's point. */
  exactMiles: Float64Array;
  /** Per carrier number, its nearest location to each ZIP row; empty for the carriers can-reach does not accept. */
  nearest: Uint32Array[];
}
