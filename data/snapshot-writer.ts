// Writes a snapshot file (its format: engine/snapshot-format.ts): the manifest is the content as
// JSON, each typed array and list of strings replaced by the Section that locates its bytes.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import {
  COLUMN_BLOCK_ROWS, HEADER, HEADER_BYTES, SECTION_ALIGN, SNAPSHOT_MAGIC, SNAPSHOT_VERSION, STRING_COLUMNS, type CompiledContent, type Section, type TypedArray,
  type TypedSection,
} from '../engine/snapshot-format.js';
import { parseWithZod } from '../engine/requests.js';
import { compiledContentSchema, snapshotOutSchema } from './options.js';

export function encodeSnapshot(content: CompiledContent): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  /** Places bytes at the next aligned offset; their CRC-32 covers the padding after them too. */
  const addChunk = (bytes: Uint8Array): { offset: number; crc32: number } => {
    const offset = size;
    chunks.push(bytes);
    size += bytes.byteLength;
    const pad = (SECTION_ALIGN - (size % SECTION_ALIGN)) % SECTION_ALIGN;
    let crc = crc32(bytes);
    if (pad) {
      const padding = new Uint8Array(pad);
      chunks.push(padding);
      size += pad;
      crc = crc32(padding, crc);
    }
    return { offset, crc32: crc };
  };
  const encoder = new TextEncoder();
  const typed = (view: TypedArray): TypedSection => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    return { type: view.constructor.name, ...addChunk(bytes.slice()), length: view.length };
  };
  const utf8 = (strings: readonly string[]) => {
    if (strings.some((v) => v.includes('\u0000'))) throw new Error('strings must not contain NUL');
    const bytes = encoder.encode(strings.join('\u0000'));
    return { ...addChunk(bytes), bytes: bytes.byteLength };
  };
  const column = (rows: readonly string[]): Section => {
    // Repetitive columns (states, cities of served points) store each distinct string once, and each
    // row's index into them.
    const distinct = [...new Set<string>(rows)];
    let refs: TypedSection | undefined;
    if (distinct.length * 2 <= rows.length) {
      const ids = new Map(distinct.map((v, i) => [v, i]));
      const Refs = distinct.length <= 0xffff ? Uint16Array : Uint32Array;
      const rowRefs = new Refs(rows.length);
      rows.forEach((v, r) => (rowRefs[r] = ids.get(v)!));
      refs = typed(rowRefs);
    }
    // The strings' UTF-8 back to back, and where each starts: one is then decoded alone.
    const strings = refs ? distinct : rows;
    const pieces = strings.map((v) => encoder.encode(v));
    const rowOffsets = new Uint32Array(strings.length + 1);
    pieces.forEach((piece, i) => (rowOffsets[i + 1] = rowOffsets[i] + piece.byteLength));
    const bytes = new Uint8Array(rowOffsets[strings.length]);
    pieces.forEach((piece, i) => bytes.set(piece, rowOffsets[i]));
    return {
      $section: 'column', ...addChunk(bytes), bytes: bytes.byteLength, length: strings.length, rowOffsets: typed(rowOffsets),
      ...(refs ? { refs } : { blockCrcs: typed(blockCrcs(bytes, rowOffsets)) }),
    };
  };
  const columns = new Map<object, Record<string, true>>([
    [content.gazetteer, STRING_COLUMNS.gazetteer],
    [content.network, STRING_COLUMNS.network],
  ]);
  const manifest = JSON.stringify(content, function (this: object, key, value) {
    if (columns.get(this)?.[key]) return column(value as string[]);
    if (ArrayBuffer.isView(value)) return { $section: 'typed', ...typed(value as TypedArray) } satisfies Section;
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
      return { $section: 'strings', ...utf8(value), length: value.length } satisfies Section;
    }
    return value;
  });
  const manifestBytes = encoder.encode(manifest);
  const manifestPadded = manifestBytes.byteLength + ((SECTION_ALIGN - (manifestBytes.byteLength % SECTION_ALIGN)) % SECTION_ALIGN);
  const out = new Uint8Array(HEADER_BYTES + manifestPadded + size);
  out.set(encoder.encode(SNAPSHOT_MAGIC), 0);
  const header = new DataView(out.buffer);
  header.setUint32(HEADER.version, SNAPSHOT_VERSION, true);
  header.setUint32(HEADER.manifestLength, manifestBytes.byteLength, true);
  header.setFloat64(HEADER.sectionsLength, size, true);
  out.set(manifestBytes, HEADER_BYTES);
  let cursor = HEADER_BYTES + manifestPadded;
  for (const chunk of chunks) {
    out.set(chunk, cursor);
    cursor += chunk.byteLength;
  }
  // Each section carries its own CRC-32 (in the manifest), checked when it is read: this one covers
  // the manifest, with its padding.
  header.setUint32(HEADER.crc32, crc32(out.subarray(HEADER_BYTES, HEADER_BYTES + manifestPadded)), true);
  return out;
}

/** Per block of a column's strings, the CRC-32 of its offsets (the next block's first included) and its UTF-8. */
function blockCrcs(utf8: Uint8Array, rowOffsets: Uint32Array): Uint32Array {
  const strings = rowOffsets.length - 1;
  const rows = COLUMN_BLOCK_ROWS;
  const crcs = new Uint32Array(Math.ceil(strings / rows));
  for (let b = 0; b < crcs.length; b++) {
    const first = b * rows;
    const end = Math.min(first + rows, strings);
    const offsets = rowOffsets.subarray(first, end + 1);
    crcs[b] = crc32(utf8.subarray(rowOffsets[first], rowOffsets[end]), crc32(new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength)));
  }
  return crcs;
}

/**
 * Writes a snapshot file; returns its size in bytes. The bytes go to a temporary file beside it that
 * is then renamed over it, so a server (re)loading the file never reads half of one. An `out` that
 * is not a path, or content that is not a compiled dataset (compileDataset's), is an
 * InvalidInputError, and nothing is written.
 */
export function writeSnapshot(out: string, content: CompiledContent): number {
  const path = parseWithZod(snapshotOutSchema, out);
  const bytes = encodeSnapshot(parseWithZod(compiledContentSchema, content));
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

