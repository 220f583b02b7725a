// Reads a snapshot file (its format: snapshot-format.ts). Typed arrays are views on the file's bytes
// (no copy); a table's string columns stay UTF-8 in them, a row decoded when an answer first needs
// it (string-column.ts). Every section is checked against its CRC-32 before it is used, so a damaged
// file never answers from garbled tables.
//
// Two ways to load: 'eager' reads the whole file and checks every section at load, so a damaged
// file fails there (what a server wants before it starts, or swaps in a reload). 'lazy' reads the
// header and manifest, each table's sections when a query first reads them, and a string column's
// strings a block of rows at a time: a cold start reads and checks only what its first answers use
// (a first search near a ZIP, about 3.8 of the sample's 13.5 MB), and memory grows with what is
// used. A damaged section then fails the query that first reads it.

import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { DatasetError } from './errors.js';
import { COLUMN_BLOCK_ROWS, HEADER, HEADER_BYTES, missingPart, SECTION_ALIGN, SNAPSHOT_MAGIC, SNAPSHOT_VERSION, TYPED_ARRAYS, type Section, type SnapshotContent, type TypedSection } from './snapshot-format.js';
import { SnapshotStrings, wholeBlocks, type StringBlock } from './string-column.js';

const REBUILD = 'rebuild it with carrier-locations build <dataDir> --out <file>';

/** When a snapshot's sections are read and checked: all at load, or each when a query first reads it. */
export type SnapshotLoad = 'eager' | 'lazy';

/** The bytes of sections, by their offset from the first section. */
interface SectionBytes {
  /** `bytes` bytes from `offset`, with the padding after them, checked against `crc`; aligned for typed views. */
  read(offset: number, bytes: number, crc: number, name: string): Uint8Array;
}

const padded = (bytes: number) => bytes + ((SECTION_ALIGN - (bytes % SECTION_ALIGN)) % SECTION_ALIGN);

const corrupt = (source: string, what: string) =>
  new DatasetError([`${source}: corrupt snapshot (${what} does not match its checksum): ${REBUILD}`]);

/** The header's facts, checked: where the manifest is and how long, where the sections start. */
interface Header {
  manifestLength: number;
  /** Offset of the first section from the start of the file. */
  sectionsStart: number;
  sectionsLength: number;
  crc32: number;
}

function readHeader(bytes: Uint8Array, fileLength: number, source: string): Header {
  if (bytes.byteLength < HEADER_BYTES || new TextDecoder().decode(bytes.subarray(0, 8)) !== SNAPSHOT_MAGIC) {
    throw new DatasetError([`${source}: not a carrier-location snapshot`]);
  }
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const version = header.getUint32(HEADER.version, true);
  if (version !== SNAPSHOT_VERSION) {
    throw new DatasetError([`${source}: snapshot format ${version}, this engine reads ${SNAPSHOT_VERSION}: ${REBUILD}`]);
  }
  const manifestLength = header.getUint32(HEADER.manifestLength, true);
  const sectionsStart = HEADER_BYTES + padded(manifestLength);
  const sectionsLength = header.getFloat64(HEADER.sectionsLength, true);
  if (sectionsStart + sectionsLength !== fileLength) throw truncated(source);
  return { manifestLength, sectionsStart, sectionsLength, crc32: header.getUint32(HEADER.crc32, true) };
}

const truncated = (source: string) => new DatasetError([`${source}: truncated or corrupt snapshot: ${REBUILD}`]);

/** A snapshot's content from its bytes, all in memory: every section checked now ('eager'). */
export function decodeSnapshot(file: Uint8Array, source = 'snapshot'): SnapshotContent {
  // Typed views need the sections aligned within their buffer: copy once if the file's bytes
  // start at an unaligned offset (Node's pooled Buffers can).
  const bytes = file.byteOffset % SECTION_ALIGN === 0 ? file : file.slice();
  const header = readHeader(bytes, bytes.byteLength, source);
  const manifest = bytes.subarray(HEADER_BYTES, header.sectionsStart);
  const base = header.sectionsStart;
  return parseManifest(manifest, header, source, 'eager', {
    read(offset, length, crc, name) {
      const section = bytes.subarray(base + offset, base + offset + padded(length));
      if (section.byteLength !== padded(length)) throw truncated(source);
      if (crc32(section) !== crc) throw corrupt(source, name);
      return section;
    },
  });
}

/** A snapshot file's content: read whole now ('eager', the default), or each section on first use ('lazy'). */
export function readSnapshot(path: string, load: SnapshotLoad = 'eager'): SnapshotContent {
  if (load === 'eager') return decodeSnapshot(namingPath(path, () => readFileSync(path)), path);
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = new Uint8Array(Math.min(size, HEADER_BYTES));
    namingPath(path, () => readSync(fd, head, 0, head.byteLength, 0));
    const header = readHeader(head, size, path);
    const manifest = new Uint8Array(header.sectionsStart - HEADER_BYTES);
    if (readSync(fd, manifest, 0, manifest.byteLength, HEADER_BYTES) !== manifest.byteLength) throw truncated(path);
    const file = new LazyFile(fd, path, header.sectionsStart);
    const content = parseManifest(manifest, header, path, 'lazy', file);
    file.loaded();
    return content;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** A folder fails in read(), after open(), and Node's error then names no path: give it the one read (a snapshot, a ZIP file). */
export function namingPath<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') (err as NodeJS.ErrnoException).path ??= path;
    throw err;
  }
}

/** Closes the file of a lazy snapshot whose tables are gone before every section was read. */
const unreadFiles = new FinalizationRegistry<number>((fd) => closeSync(fd));

/**
 * A lazily read snapshot's open file: sections are read from it as they are first used, and it is
 * closed once every deferred section is read (or its tables are garbage). A file replaced by a
 * rename (as `carrier-locations build` writes) keeps being read from the one opened.
 */
class LazyFile implements SectionBytes {
  /** Sections still to read; the file closes at zero. */
  pending = 0;
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly source: string,
    private readonly base: number,
  ) {}

  read(offset: number, length: number, crc: number, name: string): Uint8Array {
    const section = new Uint8Array(padded(length));
    this.readAt(section, offset);
    if (crc32(section) !== crc) throw corrupt(this.source, name);
    return section;
  }

  /**
   * A reader of a column's blocks of strings, each read and checked alone (against `crcs`, one
   * per block) when one of its strings is first read.
   */
  blocks(column: Section, crcs: Uint32Array, name: string): (block: number) => StringBlock {
    this.pending += crcs.length;
    const rows = COLUMN_BLOCK_ROWS;
    return (block) => {
      const first = block * rows;
      const end = Math.min(first + rows, column.length);
      const offsets = new Uint32Array(end - first + 1);
      const offsetBytes = new Uint8Array(offsets.buffer);
      this.readAt(offsetBytes, column.rowOffsets!.offset + first * Uint32Array.BYTES_PER_ELEMENT);
      const base = offsets[0];
      const utf8 = Buffer.allocUnsafe(offsets[offsets.length - 1] - base);
      this.readAt(utf8, column.offset + base);
      if (crc32(utf8, crc32(offsetBytes)) !== crcs[block]) throw corrupt(this.source, `${name}, rows ${first}-${end - 1},`);
      this.done();
      return { utf8, offsets, base };
    };
  }

  private readAt(target: Uint8Array, offset: number): void {
    if (this.closed) throw new Error(`${this.source}: read after its file was closed`);
    if (readSync(this.fd, target, 0, target.byteLength, this.base + offset) !== target.byteLength) throw truncated(this.source);
  }

  /** Called once the manifest is parsed: the deferred sections are counted. */
  loaded(): void {
    if (this.pending === 0) this.close();
    else unreadFiles.register(this, this.fd, this);
  }

  /** One deferred section has been read. */
  done(): void {
    if (--this.pending === 0) this.close();
  }

  private close(): void {
    this.closed = true;
    unreadFiles.unregister(this);
    closeSync(this.fd);
  }
}

/** A table field's section, kept by a lazy load until a query reads the field. */
class Deferred {
  constructor(readonly section: Section) {}
}

function parseManifest(manifest: Uint8Array, header: Header, source: string, load: SnapshotLoad, bytes: SectionBytes): SnapshotContent {
  if (crc32(manifest) !== header.crc32) throw corrupt(source, 'its manifest');
  const typed = (section: TypedSection | Section, name: string) => {
    const length = section.length * TYPED_ARRAYS[section.type!].BYTES_PER_ELEMENT;
    const at = bytes.read(section.offset, length, section.crc32, name);
    return new TYPED_ARRAYS[section.type!](at.buffer as ArrayBuffer, at.byteOffset, section.length);
  };
  const utf8 = (section: Section, name: string) => {
    const at = bytes.read(section.offset, section.bytes!, section.crc32, name);
    return Buffer.from(at.buffer, at.byteOffset, section.bytes!);
  };
  const materialize = (section: Section, name: string) => {
    if (section.$section === 'typed') return typed(section, name);
    if (section.$section === 'strings') return utf8(section, name).toString('utf8').split('\u0000');
    const crcs = section.blockCrcs && (typed(section.blockCrcs, `${name}'s block checksums`) as Uint32Array);
    // Lazily, a column of many distinct strings is read a block at a time; a repetitive one (its
    // distinct strings and each row's reference to one) is short, and read whole.
    if (load === 'lazy' && crcs !== undefined) return new SnapshotStrings(section.length, (bytes as LazyFile).blocks(section, crcs, name));
    const refs = section.refs && (typed(section.refs, `${name}'s row references`) as Uint16Array | Uint32Array);
    return new SnapshotStrings(section.length, wholeBlocks(utf8(section, name), typed(section.rowOffsets!, `${name}'s row offsets`) as Uint32Array), refs);
  };
  let content: Record<string, Record<string, unknown>>;
  try {
    content = JSON.parse(new TextDecoder().decode(manifest.subarray(0, header.manifestLength)), function (this: unknown, key, value) {
      if (value === null || typeof value !== 'object' || !('$section' in value)) return value;
      const section = value as Section;
      // Lists of strings outside the tables are short (a carrier's states, say): read with the manifest.
      return section.$section === 'strings' ? materialize(section, key) : new Deferred(section);
    });
  } catch (err) {
    if (err instanceof DatasetError) throw err;
    throw truncated(source);
  }
  // A manifest that parses but lacks a table (written from content that was not a compiled dataset).
  const missing = missingPart(content);
  if (missing !== undefined) throw new DatasetError([`${source}: not a snapshot of a compiled dataset (its manifest has no ${missing}): ${REBUILD}`]);
  const tables: Record<string, object> = {};
  for (const [name, fields] of Object.entries(content)) {
    tables[name] = load === 'eager' ? eagerTable(name, fields, materialize) : lazyTable(name, fields, bytes as LazyFile, materialize);
  }
  return tables as unknown as SnapshotContent;
}

type Materialize = (section: Section, name: string) => unknown;

/** How to read a table's field: its section, or its list of sections (each carrier's index); undefined for a plain value. */
function fieldReader(value: unknown, name: string, materialize: Materialize): (() => unknown) | undefined {
  if (value instanceof Deferred) return () => materialize(value.section, name);
  if (Array.isArray(value) && value.length > 0 && value.every((v) => v instanceof Deferred)) {
    return () => value.map((v: Deferred, i) => materialize(v.section, `${name}[${i}]`));
  }
  return undefined;
}

/** A table with every field read now. */
function eagerTable(table: string, fields: Record<string, unknown>, materialize: Materialize): object {
  const read = {};
  // Defined, not assigned: an object given this many properties by assignment under computed names
  // turns into a dictionary, and every read of a field would then be a lookup.
  for (const [key, value] of Object.entries(fields)) {
    Object.defineProperty(read, key, { value: fieldReader(value, `${table}.${key}`, materialize)?.() ?? value, enumerable: true, writable: true, configurable: true });
  }
  return read;
}

/**
 * A table whose sections are read on first access: a getter on its prototype reads the field and
 * makes it an own property of the table, so that warm reads are plain property loads (a getter
 * left in place cost a search about 9%).
 */
function lazyTable(table: string, fields: Record<string, unknown>, file: LazyFile, materialize: Materialize): object {
  const proto: Record<string, unknown> = {};
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const read = fieldReader(value, `${table}.${key}`, materialize);
    if (read === undefined) {
      own[key] = value;
      continue;
    }
    file.pending++;
    Object.defineProperty(proto, key, {
      enumerable: true,
      get(this: object) {
        const loaded = read();
        // From now on an own property of the table, which hides this getter: a warm read of a
        // field is then a plain property load.
        Object.defineProperty(this, key, { value: loaded, enumerable: true });
        file.done();
        return loaded;
      },
    });
  }
  return Object.assign(Object.create(proto) as object, own);
}
