// Paths given on the command line: an empty one is bad usage, and a build's --out that cannot name
// a file is said in words about that path before the build's long steps, not afterwards in the
// file system's words about another one (`EEXIST: file already exists, mkdir ...`).

import { statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { InvalidArgumentError } from 'commander';

/** An empty path is a mistake, not a request for the default (which the variables treat it as). */
export function nonEmptyPath(value: string): string {
  // After commander's own sentence (`option '--out <file>' argument '' is invalid.`): a sentence too.
  if (value.trim() === '') throw new InvalidArgumentError('A path is required.');
  return value;
}

/** Fails with one line unless `out` can name a file to write, its folders made as needed. */
export function requireFilePath(out: string): void {
  // `out/` would be written as a file named `out`, or fail with "not a directory"; an existing
  // folder would fail only once the dataset is checked and compiled, seconds later.
  if (/[/\\]$/.test(out) || existing(out)?.isDirectory()) {
    throw new Error(`${out} names a folder, not a file: give the file's name too (--out ${join(out, 'my-carriers.snapshot')})`);
  }
  for (let dir = dirname(out); ; dir = dirname(dir)) {
    const stat = existing(dir);
    if (stat) {
      if (!stat.isDirectory()) throw new Error(`${out}: ${dir} is a file, not a folder`);
      return;
    }
    if (dirname(dir) === dir) return;
  }
}

/** The path's stat, or undefined when nothing is there (ENOTDIR: a file further up, found next). */
function existing(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
}
