// The build's options, checked as the engine's are (engine/options.ts).

import * as z from 'zod';
import { loadOption, optionsObject, pathOption } from '../engine/options.js';
import { missingPart, type CompiledContent } from '../engine/snapshot-format.js';
import type { Finding } from './findings.js';

/** A snapshot is compiled data already: with a dataset directory as well, one of them would go unread. */
const ONE_SOURCE = 'snapshot and dataDir (or zipFile) are two sources of data: give one';

/** A function of the caller's, called with the dataset's warnings: only that it is a function is checked. */
const onWarnings = z.optional(
  z.custom<(warnings: Finding[]) => void>((value) => typeof value === 'function', { error: 'onWarnings must be a function, called with the dataset\'s warnings' }),
);

export const buildEngineOptionsSchema = optionsObject({
  dataDir: pathOption('dataDir'),
  zipFile: pathOption('zipFile'),
  snapshot: pathOption('snapshot'),
  load: loadOption,
  onWarnings,
}).check(
  z.refine((options) => options?.snapshot === undefined || (options.dataDir === undefined && options.zipFile === undefined), { error: ONE_SOURCE }),
);

export const datasetCheckOptionsSchema = optionsObject({ zipFile: pathOption('zipFile'), mapping: pathOption('mapping') });

/** What checkDataset returned, handed back: only its shape as an object is checked here. */
const returnedBy = (name: string, from: string, ifNull = `${name} must be the ${name} ${from} returns`) =>
  z.optional(
    z.custom<object>((value) => typeof value === 'object' && value !== null, {
      error: (issue) => (issue.input === null ? ifNull : `${name} must be the ${name} ${from} returns`),
    }),
  );

/** checkDataset's dataset is null when a finding is an error: there is nothing to compile. */
const DATASET_WITH_ERRORS = 'dataset is null: the dataset checkDataset(dir) read has errors, listed in its findings; fix them and check it again';

/** compileDataset's and buildSnapshot's: a dataset directory (with a mapping), or what checkDataset returned. */
export const compileOptionsSchema = optionsObject({
  dataDir: pathOption('dataDir'),
  mapping: pathOption('mapping'),
  zipFile: pathOption('zipFile'),
  dataset: returnedBy('dataset', 'checkDataset(dir)', DATASET_WITH_ERRORS),
  gazetteer: returnedBy('gazetteer', 'checkDataset(dir)'),
  onWarnings,
});

/** The snapshot file buildSnapshot and writeSnapshot write: checked before anything is compiled or written. */
export const snapshotOutSchema = z
  .string({ error: 'out must be the path of the snapshot file to write (a string)' })
  .min(1, { error: 'out must be the path of the snapshot file to write, not empty' });

/** writeSnapshot's content: what compileDataset returns, with every table a snapshot holds. */
export const compiledContentSchema = z.custom<CompiledContent>((value) => missingPart(value) === undefined, {
  error: (issue) =>
    typeof issue.input === 'object' && issue.input !== null
      ? `content must be what compileDataset returns: it has no ${missingPart(issue.input)}`
      : `content must be what compileDataset returns (got ${issue.input === null ? 'null' : typeof issue.input})`,
});

/** The dataset directory of checkDataset: the one argument that is not an option. */
export const datasetDirSchema = z
  .string({ error: 'dir must be the path of a dataset directory (a string)' })
  .min(1, { error: 'dir must be the path of a dataset directory, not empty' });
