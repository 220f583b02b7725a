// What a start cannot avoid, for `npm run bench:cold-start`: fresh processes that each do one part
// of a start and nothing else, so that a start's ratio to a bare node can be read beside the part
// of it no code of this package decides.
//   - the code alone: the start's files (an entry and the files it imports, not those it imports
//     dynamically) copied with everything but their import and export declarations inside a
//     function never called, so node reads them and V8 parses them, and nothing of them runs
//   - the data alone: as many bytes as the start reads from its snapshot, read in one call and
//     checked with zlib's CRC-32, as the snapshot's reader checks what it reads
// Each is a lower bound: V8 parses a function it does not call only for its syntax, where a module's
// top-level code is compiled, and one read of the bytes costs less than the reads of the tables.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsonOf } from './processes.js';

/** An import declaration as esbuild writes one (`import{a as b}from"./x.js";`), its specifier captured. */
const IMPORT_DECLARATION = /(?<=^|[;}\n])\s*import\s*(?:[\w$*{][^;]*?from\s*)?["']([^"']+)["'];?/g;

/** The files of the package a module's code imports (not those it imports dynamically), as written. */
function relativeImports(code: string): string[] {
  return [...code.matchAll(IMPORT_DECLARATION)].map(([, specifier]) => specifier!).filter((specifier) => specifier.startsWith('.'));
}

/** The files a start of `entry` loads: it and, through its static imports, the files they import. */
export function startFiles(entry: string): string[] {
  const files = [entry];
  for (let i = 0; i < files.length; i++) {
    for (const specifier of relativeImports(readFileSync(files[i]!, 'utf8'))) {
      const file = join(dirname(files[i]!), specifier);
      if (!files.includes(file)) files.push(file);
    }
  }
  return files;
}

/**
 * An ES module's code with its import and export declarations taken out and the rest put inside an
 * async function (a module may await at its top level) never called; the files of the package it
 * imports are imported for their load alone. Only what esbuild writes is understood: imports at the
 * top (`import{a as b}from"./x.js";`, `import "x";`), one export clause at the end; a copy that does
 * not parse makes the bench fail rather than measure something else.
 */
export function parsedOnly(code: string): string {
  const body = code
    .replace(IMPORT_DECLARATION, '')
    .replace(/export\s*\{[^}]*\};?/g, '')
    .replace(/^\/\/# sourceMappingURL=.*$/m, '');
  return `${relativeImports(code).map((file) => `import ${JSON.stringify(file)};\n`).join('')}export async function neverCalled() {\n${body}\n}\n`;
}

/**
 * Copies the start's files of `entry` into `outDir`, each as `parsedOnly` makes it, keeping their
 * places relative to the entry's folder; returns the copy of the entry and the bytes of code.
 */
export function codeOnlyCopy(entry: string, outDir: string): { entry: string; files: number; bytes: number } {
  const files = startFiles(entry);
  let bytes = 0;
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    bytes += Buffer.byteLength(code);
    const copy = join(outDir, relative(dirname(entry), file));
    mkdirSync(dirname(copy), { recursive: true });
    writeFileSync(copy, parsedOnly(code));
  }
  return { entry: join(outDir, relative(dirname(entry), entry)), files: files.length, bytes };
}

/** Node's arguments for a process that imports `entry` and does nothing else. */
export function importArgs(entry: string): string[] {
  return ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(entry).href)});`];
}

/**
 * The bytes a node process given `args` reads with fs.readSync from the file it reads most from
 * (the snapshot: its reader is the start's one user of readSync), counted by a module node loads
 * before the script.
 */
export function bytesReadMost(args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const counter = `
    import fs from 'node:fs';
    const readSync = fs.readSync, byFd = new Map();
    fs.readSync = function (fd, ...rest) { const n = readSync.call(this, fd, ...rest); byFd.set(fd, (byFd.get(fd) ?? 0) + n); return n; };
    process.on('exit', () => fs.writeSync(1, '\\n' + JSON.stringify({ bytes: Math.max(0, ...byFd.values()) }) + '\\n'));`;
  return (jsonOf(['--import', `data:text/javascript,${encodeURIComponent(counter)}`, ...args], cwd, env) as { bytes: number }).bytes;
}

/** Node's arguments for a process that reads `bytes` of `file` in one call and checks them. */
export function readAndCheckArgs(file: string, bytes: number): string[] {
  return [
    '-e',
    `const fs = require('node:fs'); const { crc32 } = require('node:zlib'); const fd = fs.openSync(${JSON.stringify(file)}, 'r');
     const b = Buffer.allocUnsafe(${bytes}); if (fs.readSync(fd, b, 0, b.length, 0) !== b.length) process.exit(1); crc32(b);`,
  ];
}
