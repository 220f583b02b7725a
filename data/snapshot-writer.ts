// Writes a snapshot file (its format: engine/snapshot-format.ts): the manifest is the content as
// JSON, each typed array and string column replaced by the Section that locates its bytes.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import {
  HEADER, HEADER_BYTES, SECTION_ALIGN, SNAPSHOT_MAGIC, SNAPSHOT_VERSION, type Section, type SnapshotContent, type TypedArray,
} from '../engine/snapshot-format.js';

export function encodeSnapshot(content: SnapshotContent): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const addChunk = (bytes: Uint8Array): number => {
    const offset = size;
    chunks.push(bytes);
    size += bytes.byteLength;
    const pad = (SECTION_ALIGN - (size % SECTION_ALIGN)) % SECTION_ALIGN;
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
      return { $section: 'typed', type: view.constructor.name, offset: addChunk(bytes.slice()), length: view.length } satisfies Section;
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
        } satisfies Section;
      }
      const bytes = encoder.encode(value.join('\u0000'));
      return { $section: 'strings', offset: addChunk(bytes), length: value.length, bytes: bytes.byteLength } satisfies Section;
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
  header.setUint32(HEADER.crc32, crc32(out.subarray(HEADER_BYTES)), true);
  return out;
}

/**
 * Writes a snapshot file; returns its size in bytes. The bytes go to a temporary file beside it that
 * is then renamed over it, so a server (re)loading the file never reads half of one.
 */
export function writeSnapshot(path: string, content: SnapshotContent): number {
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

