// One binary file holding a compiled gazetteer and network: a JSON manifest followed by 8-byte
// aligned sections. Typed arrays become views on the file's buffer (no copy); string columns are
// NUL-joined UTF-8 (split far faster than JSON.parse would), dictionary-coded when repetitive,
// and decoded on first use. A CRC-32 of everything after the header makes a damaged file fail at
// load rather than answer from garbled tables.

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DatasetError } from './errors.js';

const MAGIC = 'CLSNAP01';
export const SNAPSHOT_VERSION = 5;
// magic (8), version (4), manifest length (4), sections length (8), CRC-32 of the rest (4), padding (4)
const HEADER_BYTES = 32;
const REBUILD = 'rebuild it with carrier-locations build <dataDir> --out <file>';

type TypedArray = Int32Array | Uint32Array | Uint8Array | Float64Array | Uint16Array | Int16Array | Float32Array;
const TYPED: Record<string, new (buffer: ArrayBuffer, offset: number, length: number) => TypedArray> = {
  Int32Array, Uint32Array, Uint8Array, Float64Array, Uint16Array, Int16Array, Float32Array,
};

interface Section {
  $section: 'typed' | 'strings';
  type?: string;
  offset: number;
  length: number;
  bytes?: number;
  refs?: { type: string; offset: number; length: number };
}

export function encodeSnapshot(content: object): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const addChunk = (bytes: Uint8Array): number => {
    const offset = size;
    chunks.push(bytes);
    size += bytes.byteLength;
    const pad = (8 - (size % 8)) % 8;
    if (pad) {
      chunks.push(new Uint8Array(pad));
      size += pad;
    }
    return offset;
  };
  const encoder = new TextEncoder();
  const manifest = JSON.stringify(content, function (this: unknown, _key, value) {
    if (ArrayBuffer.isView(value)) {
      const view = value as TypedArray;
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      return { $section: 'typed', type: view.constructor.name, offset: addChunk(bytes.slice()), length: view.length };
    }
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
      if (value.some((v: string) => v.includes('\u0000'))) throw new Error('strings must not contain NUL');
      const distinct = [...new Set<string>(value)];
      if (distinct.length * 2 <= value.length) {
        // Repetitive columns (states, cities of served points) store each string once.
        const ids = new Map(distinct.map((v, i) => [v, i]));
        const Refs = distinct.length <= 0xffff ? Uint16Array : Uint32Array;
        const refs = new Refs(value.length);
        value.forEach((v: string, i: number) => (refs[i] = ids.get(v)!));
        const dict = encoder.encode(distinct.join('\u0000'));
        return {
          $section: 'strings', offset: addChunk(dict), length: distinct.length, bytes: dict.byteLength,
          refs: { type: Refs.name, offset: addChunk(new Uint8Array(refs.buffer)), length: refs.length },
        };
      }
      const bytes = encoder.encode(value.join('\u0000'));
      return { $section: 'strings', offset: addChunk(bytes), length: value.length, bytes: bytes.byteLength };
    }
    return value;
  });
  const manifestBytes = encoder.encode(manifest);
  const manifestPadded = manifestBytes.byteLength + ((8 - (manifestBytes.byteLength % 8)) % 8);
  const out = new Uint8Array(HEADER_BYTES + manifestPadded + size);
  out.set(encoder.encode(MAGIC), 0);
  const header = new DataView(out.buffer);
  header.setUint32(8, SNAPSHOT_VERSION, true);
  header.setUint32(12, manifestBytes.byteLength, true);
  header.setFloat64(16, size, true);
  out.set(manifestBytes, HEADER_BYTES);
  let cursor = HEADER_BYTES + manifestPadded;
  for (const chunk of chunks) {
    out.set(chunk, cursor);
    cursor += chunk.byteLength;
  }
  header.setUint32(24, crc32(out.subarray(HEADER_BYTES)), true);
  return out;
}

export function decodeSnapshot<T>(file: Uint8Array, source = 'snapshot'): T {
  // Typed views need the sections aligned within their buffer: copy once if the file's bytes
  // start at an unaligned offset (Node's pooled Buffers can).
  const bytes = file.byteOffset % 8 === 0 ? file : file.slice();
  const decoder = new TextDecoder();
  if (bytes.byteLength < HEADER_BYTES || decoder.decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw new DatasetError([`${source}: not a carrier-location snapshot`]);
  }
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const version = header.getUint32(8, true);
  if (version !== SNAPSHOT_VERSION) {
    throw new DatasetError([`${source}: snapshot format ${version}, this engine reads ${SNAPSHOT_VERSION}: ${REBUILD}`]);
  }
  const manifestLength = header.getUint32(12, true);
  const base = bytes.byteOffset + HEADER_BYTES + manifestLength + ((8 - (manifestLength % 8)) % 8);
  const truncated = () => new DatasetError([`${source}: truncated or corrupt snapshot: ${REBUILD}`]);
  if (HEADER_BYTES + manifestLength > bytes.byteLength) throw truncated();
  const manifest = decoder.decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + manifestLength));
  if (base - bytes.byteOffset + header.getFloat64(16, true) !== bytes.byteLength) throw truncated();
  // About 3 ms for the 13.6 MB sample: bytes changed in place (a disk or a copy gone wrong) would
  // otherwise load and answer wrong.
  if (crc32(bytes.subarray(HEADER_BYTES)) !== header.getUint32(24, true)) {
    throw new DatasetError([`${source}: corrupt snapshot (its checksum does not match its contents): ${REBUILD}`]);
  }
  const typed = (section: { type?: string; offset: number; length: number }) =>
    new TYPED[section.type!](bytes.buffer as ArrayBuffer, base + section.offset, section.length);
  const strings = (section: Section) => {
    const start = base - bytes.byteOffset + section.offset;
    const list = decoder.decode(bytes.subarray(start, start + section.bytes!)).split('\u0000');
    if (!section.refs) return list;
    const refs = typed(section.refs);
    const out = new Array<string>(refs.length);
    for (let i = 0; i < refs.length; i++) out[i] = list[refs[i]];
    return out;
  };
  // String columns are decoded on first read: a cold start pays only for the columns it uses.
  // Their getters sit on a prototype of the object that holds them: defining accessors on the
  // object itself would turn it into a slow dictionary-mode object for the engine's life, and every
  // column read on the query path would pay a hash lookup.
  const lazyColumns = new Map<object, Map<string, Section>>();
  let content: T;
  try {
    content = JSON.parse(manifest, function (this: Record<string, unknown>, key, value) {
      if (value === null || typeof value !== 'object') return value;
      if ('$section' in value) {
        const section = value as Section;
        if (section.$section === 'typed') return typed(section);
        if (Array.isArray(this)) return strings(section);
        const columns = lazyColumns.get(this) ?? new Map<string, Section>();
        lazyColumns.set(this, columns.set(key, section));
        return null;
      }
      const columns = lazyColumns.get(value);
      return columns ? withLazyColumns(value as Record<string, unknown>, columns, strings) : value;
    }) as T;
  } catch {
    throw truncated();
  }
  return content;
}

/** A copy of `owner` whose `columns` are decoded on first read, then held as its own properties. */
function withLazyColumns(owner: Record<string, unknown>, columns: Map<string, Section>, decode: (section: Section) => string[]): object {
  const getters: PropertyDescriptorMap = {};
  for (const [key, section] of columns) {
    getters[key] = {
      enumerable: true,
      get(this: object) {
        const value = decode(section);
        Object.defineProperty(this, key, { value, enumerable: true });
        return value;
      },
    };
  }
  const object: Record<string, unknown> = Object.create(Object.create(Object.prototype, getters));
  for (const key in owner) if (!columns.has(key)) object[key] = owner[key];
  return object;
}

/**
 * Writes a snapshot file; returns its size in bytes. The bytes go to a temporary file beside it that
 * is then renamed over it, so a server (re)loading the file never reads half of one.
 */
export function writeSnapshot(path: string, content: object): number {
  const bytes = encodeSnapshot(content);
  mkdirSync(dirname(path), { recursive: true });
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return bytes.byteLength;
}

export function readSnapshot<T>(path: string): T {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (err) {
    // A folder fails in read(), after open(), and Node's error then names no path: give it the one read.
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') (err as NodeJS.ErrnoException).path ??= path;
    throw err;
  }
  return decodeSnapshot<T>(file, path);
}
