// The build's options, checked as the engine's are (engine/options.ts).

import * as z from 'zod';
import { loadOption, optionsObject, pathOption } from '../engine/options.js';

export const buildEngineOptionsSchema = optionsObject({ dataDir: pathOption('dataDir'), zipFile: pathOption('zipFile'), snapshot: pathOption('snapshot'), load: loadOption });

export const datasetCheckOptionsSchema = optionsObject({ zipFile: pathOption('zipFile'), mapping: pathOption('mapping') });

/** The dataset directory of checkDataset: the one argument that is not an option. */
export const datasetDirSchema = z
  .string({ error: 'dir must be the path of a dataset directory (a string)' })
  .min(1, { error: 'dir must be the path of a dataset directory, not empty' });
