// The work of `carrier-locations build`, in a worker thread so that the main thread stays free to
// draw the progress: check the dataset, compile it, write the snapshot, reporting each step.

import { dirname, resolve } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { checkDataset, compileDataset, writeSnapshot, type Finding } from '../../data/index.js';
import type { CompiledContent } from '../../engine/snapshot-format.js';
import { describeError } from '../describe-error.js';

export interface BuildJob {
  dataDir: string;
  zipFile?: string | undefined;
  mapping?: string | undefined;
  out: string;
}

export type BuildStep = 'check' | 'compile' | 'write';

/** What the worker reports, in this order; `checked` with an error finding ends the build. */
export type BuildMessage =
  | { type: 'step'; step: BuildStep }
  | { type: 'checked'; findings: Finding[] }
  | { type: 'written'; bytes: number }
  | { type: 'failed'; message: string };

function build({ dataDir, zipFile, mapping, out }: BuildJob, report: (message: BuildMessage) => void): void {
  report({ type: 'step', step: 'check' });
  const { findings, dataset, gazetteer } = checkDataset(dataDir, { zipFile, mapping });
  report({ type: 'checked', findings });
  if (!dataset) return;
  report({ type: 'step', step: 'compile' });
  const content = compileDataset({ dataset, gazetteer });
  report({ type: 'step', step: 'write' });
  report({ type: 'written', bytes: writeTo(out, content) });
}

function writeTo(out: string, content: CompiledContent): number {
  try {
    return writeSnapshot(out, content);
  } catch (err) {
    // The bytes go to a temporary file beside `out` first: failing to write that is failing to write `out`.
    const { path } = err as NodeJS.ErrnoException;
    if (path !== undefined && resolve(dirname(path)) === resolve(dirname(out)) && resolve(path) !== resolve(out)) (err as NodeJS.ErrnoException).path = out;
    throw err;
  }
}

const report = (message: BuildMessage) => parentPort!.postMessage(message);
try {
  build(workerData as BuildJob, report);
} catch (err) {
  report({ type: 'failed', message: describeError(err) });
}
