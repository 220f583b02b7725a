// The output is the command's result: a write to stdout that fails (a full disk) fails the command
// with one line and exit 1, while a reader that stops early (`| head -1`) is no failure at all.

import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { writeDataset } from '../support/small-dataset.js';

let root: string;
let valid: string;
let empty: string;
// Linux's /dev/full: every write fails with ENOSPC, as on a disk with no space left.
let full: number;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cli-output-'));
  valid = writeDataset(join(root, 'valid'));
  empty = writeDataset(join(root, 'empty'), {});
  full = openSync('/dev/full', 'w');
});
afterAll(() => {
  closeSync(full);
  rmSync(root, { recursive: true, force: true });
});

describe('stdout on a full disk', () => {
  it.each([
    [['search', '--state', 'TX']],
    [['search', '--state', 'TX', '--json']],
    [['geocode', '--zip', '10001']],
    [['validate', '<valid>']],
    [['--help']],
    [['reach', '--help']],
    [['--version']],
  ])('%j: one line and exit 1', async (args) => {
    const run = await runCli(args.map((a) => (a === '<valid>' ? valid : a)), { stdout: full });
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'error: cannot write the output: no space left on the device\n' });
  });
});

describe('a reader that stops reading', () => {
  it.each([
    [['search', '--state', 'TX'], 0],
    [['validate', '<valid>', '--json'], 0],
    // The command's own outcome stands: a dataset with errors still fails.
    [['validate', '<empty>'], 1],
  ])('%j: quiet, with the exit code of the command (%i)', async (args, code) => {
    const child = startCli(args.map((a) => (a === '<valid>' ? valid : a === '<empty>' ? empty : a)));
    // Closed before the command writes: its first write meets a pipe with no reader (EPIPE).
    child.stdout!.destroy();
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect([exit, stderr]).toEqual([code, '']);
  });
});
