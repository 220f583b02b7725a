// The library's options, checked as its queries are: a wrong option is an InvalidInputError that
// names it, never a silent default (an empty snapshot path loading the sample instead) or a limit
// that is no limit (`maxPerRequest: NaN` from a misread environment variable).

import { DATE_RANGE } from './holidays.js';
import { NOT_EMPTY, parseWithZod } from './requests.js';
import * as z from './zod.js';

/**
 * A whole options argument: absent, or an object holding only the named options (a typo is an
 * error, not ignored). `elsewhere` names options another entry takes, with where to find them.
 */
export const optionsObject = <T extends z.core.$ZodLooseShape>(shape: T, elsewhere: Record<string, string> = {}) =>
  z.optional(
    z.strictObject(shape, {
      error: (issue) => {
        if (issue.code !== 'unrecognized_keys') return `options must be an object (got ${issue.input === null ? 'null' : typeof issue.input})`;
        const moved = issue.keys.find((key) => key in elsewhere);
        if (moved !== undefined) return `${moved} ${elsewhere[moved]}`;
        return `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}: the options are ${Object.keys(shape).join(', ')}`;
      },
    }),
  );

export const pathOption = (name: string) =>
  z.optional(z.string({ error: `${name} must be a file path (a string)` }).check(z.minLength(1, NOT_EMPTY(name))));

const COMPILED_BY_BUILD = 'is an option of createEngine from carrier-locations/build, which compiles a dataset: this one loads snapshots';

/** How a snapshot file is read: see SnapshotLoad. */
export const loadOption = z.optional(z.enum(['lazy', 'eager'], { error: 'load must be "lazy" or "eager"' }));
/** How both entries' createEngine read a snapshot file when `load` is not given. */
export const DEFAULT_LOAD = 'lazy';

export const engineOptionsSchema = optionsObject(
  { snapshot: pathOption('snapshot'), load: loadOption },
  { dataDir: COMPILED_BY_BUILD, zipFile: COMPILED_BY_BUILD },
);

const WHOLE = 'maxPerRequest must be a whole number of at least 1';

// The options of a batch and of the schedule queries: built on their first use, as the queries'
// own schemas are (requests.ts), since a start calls neither.
export const batchOptionsSchema = z.lazy(() =>
  optionsObject({
    // NaN and Infinity are numbers to JavaScript, out of range here.
    maxPerRequest: z.optional(
      z.number({ error: (issue) => (typeof issue.input === 'number' ? WHOLE : 'maxPerRequest must be a number') }).check(z.int({ error: WHOLE }), z.minimum(1, { error: WHOLE })),
    ),
  }),
);

/** From the first instant of the first date a query may name to the last of the last: its local date is then one as well, give or take the day that time zones shift it. */
const EARLIEST = Date.parse(`${DATE_RANGE.from}T00:00:00Z`);
const LATEST = Date.parse(`${DATE_RANGE.to}T23:59:59.999Z`);

export const serviceDaysOptionsSchema = z.lazy(() =>
  optionsObject({
    now: z.optional(
      z
        .date({ error: 'now must be a valid Date' })
        .check(z.refine((d: Date) => d.getTime() >= EARLIEST && d.getTime() <= LATEST, { error: `now must be between ${DATE_RANGE.from} and ${DATE_RANGE.to}, the dates a query may name` })),
    ),
  }),
);

export const checkedOptions = <S extends z.ZodMiniType>(schema: S, options: unknown): NonNullable<z.output<S>> =>
  (parseWithZod(schema, options) ?? {}) as NonNullable<z.output<S>>;
