// A carrier's points file as the carrier publishes it, read through a mapping file: which of its
// columns is which of ours, and how its codes translate (days `M,T,W,TH,F` or `1-5`, direct flags
// `D`/`I`, `Y`/`N`). The file is then checked as service-points.csv is, its findings on its own
// lines under its own name.

import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { evaluate } from '@humanwhocodes/momoa';
import * as z from 'zod';
import { unknownFields } from '../engine/carriers.js';
import { DAY_LETTERS } from '../engine/snapshot-format.js';
import { readJson } from './file-text.js';
import { SERVICE_POINTS, type ServicePointRow } from './dataset-rows.js';
import type { Findings } from './findings.js';

/** Our columns a carrier's file can fill; `carrier` is the mapping's, the same for every row. */
const MAPPED_COLUMNS = SERVICE_POINTS.columns.filter((c) => c !== 'carrier') as [Exclude<keyof ServicePointRow, 'carrier'>, ...Exclude<keyof ServicePointRow, 'carrier'>[]];
type MappedColumn = (typeof MAPPED_COLUMNS)[number];

/** How a file writes service days: ours (`MTWRF`), day names or abbreviations (`M,T,W,TH,F`), or numbers with Monday 1 (`1-5`, `1,3,5`). */
const DAY_FORMATS = ['letters', 'tokens', 'numbers'] as const;

const OUR_COLUMNS = new Set<string>(MAPPED_COLUMNS);

/** An object keyed by our column names: any other key is named in the message. */
const byOurColumn = <T extends z.ZodType>(value: T, error: string) =>
  z.record(z.string(), value, { error }).superRefine((record, ctx) => {
    for (const key of Object.keys(record)) {
      if (!OUR_COLUMNS.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" is not one of our columns: ${MAPPED_COLUMNS.join(', ')}` });
    }
  }) as unknown as z.ZodType<Partial<Record<MappedColumn, z.output<T>>>>;

/** What a mapping file is, said when it is neither. */
const MAPPING_SHAPE = 'a mapping file is an object { "file", "carrier", "columns", ... } or a list of them';

const mappingEntryFields = {
  file: z.string({ error: 'file must be the name of the carrier\'s CSV file, beside the mapping file' }).min(1, { error: 'file must not be empty' }),
  carrier: z.string({ error: 'carrier must be the id of a carrier of carriers.json' }).min(1, { error: 'carrier must not be empty' }),
  columns: byOurColumn(
    z.string({ error: 'a column name must be text' }).min(1, { error: 'a column name must not be empty' }),
    'columns must be an object naming, for each of our columns, the carrier\'s column: { "zip": "ZIP_CODE", ... }',
  ),
  days: z.enum(DAY_FORMATS, { error: `days must be one of ${DAY_FORMATS.join(', ')}` }).default('letters'),
  values: byOurColumn(
    z.record(z.string(), z.string({ error: 'a code must translate to text, such as "true"' }), { error: 'each column\'s codes must be an object { "D": "true" }' }),
    'values must be an object: for a column, the carrier\'s codes and ours, { "direct": { "D": "true", "I": "false" } }',
  ).optional(),
};

const mappingEntrySchema = z.strictObject(mappingEntryFields, {
  error: (issue) => {
    if (issue.code !== 'unrecognized_keys') return MAPPING_SHAPE;
    const fields = Object.keys(mappingEntryFields);
    return `${unknownFields(issue.keys)} (a mapping has ${fields.slice(0, -1).join(', ')} and ${fields.at(-1)})`;
  },
});

/**
 * A mapping file: one entry, or a list of them (one per carrier file). Told apart by its shape, not
 * as a union: a union that fails says only that neither form fits, hiding the entry's own mistake.
 */
const mappingListSchema = z.array(mappingEntrySchema).min(1, { error: MAPPING_SHAPE });
const mappingSchemaOf = (json: unknown) => (Array.isArray(json) ? mappingListSchema : mappingEntrySchema);

export type MappingEntry = z.output<typeof mappingEntrySchema>;

/** How readTable reads a carrier's file: its path, its header in our names, the constant columns, each value in our codes. */
export interface TableSource {
  /** The file's path. */
  path: string;
  /** The file as findings name it. */
  file: string;
  /** Our column of each of the file's header names ('' for the ones the mapping leaves out). */
  header(names: readonly string[]): string[];
  /** The carrier's name of one of our columns, for messages; undefined when the mapping names none. */
  nameOf(column: string): string | undefined;
  constants: Readonly<Record<string, string>>;
  value(column: string, raw: string): string;
}

/** Reads a mapping file; each problem is a finding on it (line 0: the file as a whole). Null when it cannot be used. */
export function readMapping(path: string, findings: Findings): TableSource[] | null {
  const file = basename(path);
  if (!existsSync(path)) {
    findings.error(file, 0, 'the mapping file is missing');
    return null;
  }
  const root = readJson(path, (line, message) => findings.error(file, line, message));
  if (root === null) return null;
  const json = evaluate(root);
  const parsed = mappingSchemaOf(json).safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const at = issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').replace(/^\./, '');
      findings.error(file, 0, at ? `${at}: ${issue.message}` : issue.message);
    }
    return null;
  }
  const entries = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  return entries.map((entry) => tableSource(entry, dirname(path)));
}

export function tableSource(entry: MappingEntry, dir: string): TableSource {
  const ours = new Map(Object.entries(entry.columns).map(([column, theirs]) => [theirs!, column]));
  return {
    path: join(dir, entry.file),
    file: entry.file,
    header: (names) => names.map((name) => ours.get(name) ?? ''),
    nameOf: (column) => entry.columns[column as MappedColumn],
    constants: { carrier: entry.carrier },
    value(column, raw) {
      const codes = entry.values?.[column as MappedColumn];
      const coded = codes === undefined ? raw : (codes[raw] ?? codeIgnoringCase(codes, raw) ?? raw);
      return column === 'serviceDays' ? serviceDays(coded, entry.days) : coded;
    },
  };
}

function codeIgnoringCase(codes: Record<string, string>, raw: string): string | undefined {
  const wanted = raw.toUpperCase();
  for (const [code, value] of Object.entries(codes)) if (code.toUpperCase() === wanted) return value;
  return undefined;
}

/** Day names and abbreviations as carriers write them, by weekday (Monday 0). `S` alone is left out: Saturday or Sunday? */
const DAY_TOKENS: Record<string, number> = {
  M: 0, MO: 0, MON: 0, MONDAY: 0,
  T: 1, TU: 1, TUE: 1, TUES: 1, TUESDAY: 1,
  W: 2, WE: 2, WED: 2, WEDNESDAY: 2,
  R: 3, TH: 3, THU: 3, THUR: 3, THURS: 3, THURSDAY: 3,
  F: 4, FR: 4, FRI: 4, FRIDAY: 4,
  SA: 5, SAT: 5, SATURDAY: 5,
  U: 6, SU: 6, SUN: 6, SUNDAY: 6,
};

/**
 * A day list in our letters (MTWRFSU, in that order), or the value unchanged when it is not one
 * the format reads: the column's own check then reports it.
 */
export function serviceDays(value: string, format: MappingEntry['days']): string {
  if (format === 'letters') return value.toUpperCase();
  const days = new Set<number>();
  for (const token of value.toUpperCase().split(/[\s,;/]+/).filter(Boolean)) {
    if (format === 'tokens') {
      const day = DAY_TOKENS[token];
      if (day === undefined) return value;
      days.add(day);
      continue;
    }
    const range = /^([1-7])-([1-7])$/.exec(token);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (from > to) return value;
      for (let d = from; d <= to; d++) days.add(d - 1);
    } else if (/^[1-7]+$/.test(token)) for (const digit of token) days.add(Number(digit) - 1);
    else return value;
  }
  return [...days].sort().map((d) => DAY_LETTERS[d]).join('');
}
