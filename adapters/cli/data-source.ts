// Which data a command answers from: `--snapshot FILE` or `--data DIR`, else the environment the
// server reads (SNAPSHOT_PATH, DATA_DIR), else the bundled sample. The flags are turned into those
// variables, so the command line, `npm start` and the Lambda handler choose data one way.

import { Option, type Command } from 'commander';
import { findingText, firstOfFindings, type Finding } from '../../data/findings.js';
import type { Engine } from '../../engine/engine.js';
import { loadEngine } from '../engine-source.js';
import { readConfig } from '../http/config.js';
import { requireDatasetDir } from './dataset-args.js';
import { nonEmptyPath } from './paths.js';

export type Env = Record<string, string | undefined>;

export interface DataFlags {
  snapshot?: string;
  data?: string;
}

/** What either flag's absence means, in the order it is looked for. */
const WITHOUT_EITHER = '(without either flag: $SNAPSHOT_PATH, else $DATA_DIR, else the bundled sample)';

export function addDataOptions(command: Command): Command {
  return command
    .addOption(new Option('--snapshot <file>', `compiled snapshot to load ${WITHOUT_EITHER}`).conflicts('data').argParser(nonEmptyPath))
    .addOption(new Option('--data <dir>', `dataset directory to compile at start ${WITHOUT_EITHER}`).argParser(nonEmptyPath));
}

/**
 * A copy of the environment with the flags' choice of data; a flag replaces both variables, so it
 * wins over either. The dataset directory chosen is checked however it was chosen, so that
 * `--data /nope` and `DATA_DIR=/nope` fail in the same words.
 */
export function withDataFlags(env: Env, flags: DataFlags): Env {
  let out: Env = { ...env };
  if (flags.snapshot !== undefined) out = { ...env, SNAPSHOT_PATH: flags.snapshot, DATA_DIR: undefined };
  else if (flags.data !== undefined) out = { ...env, SNAPSHOT_PATH: undefined, DATA_DIR: flags.data };
  const { snapshotPath, dataDir } = dataChoice(out);
  if (snapshotPath === undefined && dataDir !== undefined) requireDatasetDir(dataDir);
  return out;
}

/** Which data the variables choose, read as the server reads them (a blank one is unset). */
const dataChoice = ({ SNAPSHOT_PATH, DATA_DIR }: Env) => readConfig({ SNAPSHOT_PATH, DATA_DIR });

/**
 * The engine over the chosen data. Only the data variables are read: a bad PORT is no reason to
 * fail a look-up. The build's code is loaded only to compile a dataset directory, and a snapshot
 * is read as createEngine reads it by default (each table when the look-up first needs it): a
 * look-up is one query, and its start is most of its time.
 */
export async function engineFor(flags: DataFlags, env: Env = process.env): Promise<Engine> {
  const choice = dataChoice(withDataFlags(env, flags));
  const compile = !choice.snapshotPath && choice.dataDir ? (await import('../../data/index.js')).createEngine : undefined;
  // The answer goes to standard output; what the dataset's checks warn of, to standard error.
  const onWarnings = (warnings: Finding[]) => process.stderr.write(`warning: ${firstOfFindings(warnings.map(findingText))}\n`);
  return loadEngine(choice, compile, { load: 'lazy', onWarnings });
}
