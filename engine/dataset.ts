// Reads a dataset directory (carriers.json, terminals.csv, service-points.csv), validating every
// row with zod. All problems are collected and reported together as `file:line: reason`.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

export type TerminalRow = z.output<typeof terminalSchema>;
export type ServicePointRow = z.output<typeof servicePointSchema>;

export interface Dataset {
  carriers: CarrierInfo[];
  terminals: TerminalRow[];
  servicePoints: ServicePointRow[];
}

export function readDataset(dir: string): Dataset {
  const problems: string[] = [];
  const carriers = readCarriers(join(dir, 'carriers.json'), problems);
  const carrierIds = new Set(carriers.map((c) => c.id));
  const terminals = readCsv(join(dir, 'terminals.csv'), TERMINAL_COLUMNS, terminalSchema, problems, true);
  const servicePoints = readCsv(join(dir, 'service-points.csv'), SERVICE_POINT_COLUMNS, servicePointSchema, problems, false);

  const codes = new Set<string>();
  for (const { row, line, file } of terminals) {
    if (!carrierIds.has(row.carrier)) problems.push(`${file}:${line}: unknown carrier "${row.carrier}"`);
    const key = `${row.carrier}\u0000${row.terminalCode}`;
    if (codes.has(key)) problems.push(`${file}:${line}: duplicate terminalCode "${row.terminalCode}" for ${row.carrier}`);
    codes.add(key);
  }
  const servedKeys = new Set<string>();
  for (const { row, line, file } of servicePoints) {
    if (!carrierIds.has(row.carrier)) problems.push(`${file}:${line}: unknown carrier "${row.carrier}"`);
    else if (!codes.has(`${row.carrier}\u0000${row.terminalCode}`)) {
      problems.push(`${file}:${line}: terminalCode "${row.terminalCode}" is not a terminal of ${row.carrier}`);
    }
    const key = `${row.carrier}\u0000${row.zip}\u0000${row.city.toLowerCase()}`;
    if (servedKeys.has(key)) problems.push(`${file}:${line}: duplicate row for ${row.carrier} ${row.zip} ${row.city}`);
    servedKeys.add(key);
  }
  if (carriers.length > 250) problems.push('carriers.json: at most 250 carriers are supported');
  if (problems.length > 0) throw new DatasetError(problems);
  return { carriers, terminals: terminals.map((t) => t.row), servicePoints: servicePoints.map((s) => s.row) };
}

function readCarriers(file: string, problems: string[]): CarrierInfo[] {
  if (!existsSync(file)) {
    problems.push(`${file}: missing`);
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${file}: not valid JSON (${(error as Error).message})`);
    return [];
  }
  if (!Array.isArray(json)) {
    problems.push(`${file}: must be an array of carriers`);
    return [];
  }
  const carriers: CarrierInfo[] = [];
  const seen = new Set<string>();
  json.forEach((entry, i) => {
    const parsed = carrierSchema.safeParse(entry);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${file}: [${i}].${issue.path.join('.')}: ${issue.message}`);
      return;
    }
    if (seen.has(parsed.data.id)) problems.push(`${file}: [${i}]: duplicate id "${parsed.data.id}"`);
    seen.add(parsed.data.id);
    carriers.push(parsed.data);
  });
  return carriers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function readCsv<S extends z.ZodType>(
  file: string,
  columns: readonly string[],
  schema: S,
  problems: string[],
  required: boolean,
): { row: z.output<S>; line: number; file: string }[] {
  if (!existsSync(file)) {
    if (required) problems.push(`${file}: missing`);
    return [];
  }
  // Line endings are unified first: csv-parse counts a CRLF inside a quoted field as two lines.
  const text = readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
  let records: { record: string[]; info: { lines: number; raw: string } }[];
  try {
    records = parse(text, { bom: true, info: true, raw: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as typeof records;
  } catch (error) {
    const e = error as Error & { lines?: number };
    problems.push(`${file}:${e.lines ?? 1}: ${e.message}`);
    return [];
  }
  if (records.length === 0) {
    problems.push(`${file}:1: missing header`);
    return [];
  }
  const header = records[0].record;
  const missing = columns.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    problems.push(`${file}:1: missing column(s) ${missing.join(', ')}`);
    return [];
  }
  const rows: { row: z.output<S>; line: number; file: string }[] = [];
  for (const { record, info } of records.slice(1)) {
    // Report the line a record starts on, also for records spanning several lines.
    // (a record's raw text can carry the blank lines skipped before it)
    const line = info.lines - (info.raw.replace(/^\n+/, '').replace(/\n$/, '').split('\n').length - 1);
    if (record.length !== header.length) {
      problems.push(`${file}:${line}: expected ${header.length} fields, got ${record.length}`);
      continue;
    }
    const parsed = schema.safeParse(Object.fromEntries(header.map((name, i) => [name, record[i]])));
    if (parsed.success) rows.push({ row: parsed.data, line, file });
    else {
      const reasons = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      problems.push(`${file}:${line}: ${reasons.join('; ')}`);
    }
  }
  return rows;
}
