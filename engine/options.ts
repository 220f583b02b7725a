// The library's options, checked as its queries are: a wrong option is an InvalidInputError that
// names it, never a silent default (an empty snapshot path loading the sample instead) or a limit
// that is no limit (`maxPerRequest: NaN` from a misread environment variable).

import * as z from 'zod';
import { DATE_RANGE, NOT_EMPTY, parseWithZod } from './requests.js';

/** A whole options argument: absent, or an object holding only the named options (a typo is an error, not ignored). */
const optionsObject = <T extends z.ZodRawShape>(shape: T) =>
  z
    .strictObject(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}: the options are ${Object.keys(shape).join(', ')}`
          : `options must be an object (got ${issue.input === null ? 'null' : typeof issue.input})`,
    })
    .optional();

const path = (name: string) =>
  z.string({ error: `${name} must be a file path (a string)` }).min(1, NOT_EMPTY(name)).optional();

export const engineOptionsSchema = optionsObject({ dataDir: path('dataDir'), zipFile: path('zipFile'), snapshot: path('snapshot') });

export const datasetCheckOptionsSchema = optionsObject({ zipFile: path('zipFile'), mapping: path('mapping') });

/** The dataset directory of checkDataset: the one argument that is not an option. */
export const datasetDirSchema = z
  .string({ error: 'dir must be the path of a dataset directory (a string)' })
  .min(1, { error: 'dir must be the path of a dataset directory, not empty' });

const WHOLE = 'maxPerRequest must be a whole number of at least 1';

export const batchOptionsSchema = optionsObject({
  // NaN and Infinity are numbers to JavaScript, out of range here.
  maxPerRequest: z
    .number({ error: (issue) => (typeof issue.input === 'number' ? WHOLE : 'maxPerRequest must be a number') })
    .int({ error: WHOLE })
    .min(1, { error: WHOLE })
    .optional(),
});

/** From the first instant of the first date a query may name to the last of the last: its local date is then one as well, give or take the day that time zones shift it. */
const EARLIEST = Date.parse(`${DATE_RANGE.from}T00:00:00Z`);
const LATEST = Date.parse(`${DATE_RANGE.to}T23:59:59.999Z`);

export const serviceDaysOptionsSchema = optionsObject({
  now: z
    .date({ error: 'now must be a valid Date' })
    .refine((d) => d.getTime() >= EARLIEST && d.getTime() <= LATEST, { error: `now must be between ${DATE_RANGE.from} and ${DATE_RANGE.to}, as date must` })
    .optional(),
});

export const checkedOptions = <S extends z.ZodType>(schema: S, options: unknown): NonNullable<z.output<S>> =>
  (parseWithZod(schema, options) ?? {}) as NonNullable<z.output<S>>;
