// `carrier-locations build <dataDir> --out <file>`: check a dataset and compile it into a snapshot.
// Findings go to stderr; with an error nothing is written. The work runs in a worker thread
// (build-worker.ts) so the progress on stderr stays live through its long steps.

import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Option, type Command } from 'commander';
import { formatFinding, type Finding } from '../../data/findings.js';
import { DEFAULT_SNAPSHOT, SAMPLE_DATA_DIR } from '../../engine/package-files.js';
import type { BuildJob, BuildMessage, BuildStep } from './build-worker.js';
import { countFindings, DATA_DIR_HELP, mappingOption, requireDatasetDir, zipsOption } from './dataset-args.js';
import { nonEmptyPath, requireFilePath } from './paths.js';
import type { StepProgress } from './progress.js';

interface BuildFlags {
  out: string;
  zips?: string;
  mapping?: string;
}

const STEPS: readonly BuildStep[] = ['check', 'compile', 'write'];

export function addBuildCommand(program: Command): void {
  program
    .command('build')
    .summary('check a dataset and compile it into a snapshot file')
    .description(
      'Check a dataset directory and compile it into a snapshot file that serve, the look-ups and createEngine({ snapshot }) ' +
        'load in milliseconds. Warnings are printed and the build goes on; with an error nothing is written (exit 1).',
    )
    .argument('<dataDir>', DATA_DIR_HELP)
    .addOption(new Option('--out <file>', 'snapshot file to write (replaced whole, never half-written)').makeOptionMandatory().argParser(nonEmptyPath))
    .addOption(zipsOption())
    .addOption(mappingOption())
    .addHelpText(
      'after',
      '\nExamples:\n  carrier-locations build ./my-carriers --out my-carriers.snapshot\n' +
        '  carrier-locations build ./my-carriers --mapping ./my-carriers/mapping.json --out my-carriers.snapshot',
    )
    .action(async (dataDir: string, flags: BuildFlags) => {
      requireDatasetDir(dataDir);
      refuseBundledSnapshot(dataDir, flags);
      requireFilePath(flags.out);
      const started = performance.now();
      const labels: Record<BuildStep, string> = { check: `checking ${dataDir}`, compile: 'compiling', write: `writing ${flags.out}` };
      // Loaded here, not at the top: only a build draws progress bars.
      const { stepProgress } = await import('./progress.js');
      const progress = stepProgress(STEPS.map((step) => labels[step]));
      let outcome: BuildOutcome;
      try {
        outcome = await runBuild({ dataDir, zipFile: flags.zips, mapping: flags.mapping, out: flags.out }, progress);
      } finally {
        progress.stop();
      }
      for (const finding of outcome.findings) console.error(formatFinding(finding));
      const count = countFindings(outcome.findings);
      if (count.errors > 0) throw new Error(`${dataDir}: ${count.text}: nothing written`);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`wrote ${flags.out} (${(outcome.bytes / 1e6).toFixed(1)} MB) from ${dataDir} in ${seconds} s: ${count.text}`);
    });
}

/**
 * The sample snapshot inside the package is what `createEngine()` loads: it is only ever compiled
 * from the bundled sample dataset, never replaced by another one.
 */
function refuseBundledSnapshot(dataDir: string, flags: BuildFlags): void {
  if (canonical(flags.out) !== canonical(DEFAULT_SNAPSHOT)) return;
  if (canonical(dataDir) === canonical(SAMPLE_DATA_DIR) && flags.zips === undefined && flags.mapping === undefined) return;
  throw new Error(`${flags.out} is the bundled sample snapshot: write your snapshot elsewhere (--out my-carriers.snapshot)`);
}

/** The absolute path with symbolic links resolved, also for a file that does not exist yet. */
function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

interface BuildOutcome {
  findings: Finding[];
  bytes: number;
}

function runBuild(job: BuildJob, progress: StepProgress): Promise<BuildOutcome> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(new URL('./build-worker.js', import.meta.url), { workerData: job });
    const outcome: BuildOutcome = { findings: [], bytes: 0 };
    let failure: string | undefined;
    worker.on('message', (message: BuildMessage) => {
      if (message.type === 'step') progress.step(STEPS.indexOf(message.step));
      else if (message.type === 'checked') outcome.findings = message.findings;
      else if (message.type === 'written') outcome.bytes = message.bytes;
      else failure = message.message;
    });
    worker.on('error', reject);
    worker.on('exit', () => (failure === undefined ? resolvePromise(outcome) : reject(new Error(failure))));
  });
}
