// Reads the files of a dataset directory into numbered rows, reporting every malformed value on its
// line: carriers.json with momoa (a JSON parser that keeps every node's position), the CSV tables
// with csv-parse, each row validated with its table's zod schemas.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { evaluate, type ValueNode } from '@humanwhocodes/momoa';
import { parse, type CsvError, type Options as CsvOptions } from 'csv-parse/sync';
import * as z from 'zod';
import { carrierSchema, type CarrierInfo } from '../engine/carriers.js';
import type { TableSource } from './carrier-mapping.js';
import type { TableSpec } from './dataset-rows.js';
import { plural } from '../engine/plural.js';
import type { Findings } from './findings.js';
import { readJson, readText } from './file-text.js';

export const CARRIERS_FILE = 'carriers.json';

/** Most carriers a dataset may hold: the network numbers them in one byte. */
const MAX_CARRIERS = 250;

interface CarriersRead {
  /** The valid entries, in file order. */
  carriers: CarrierInfo[];
  /**
   * The id of every entry, valid or not: rows naming a carrier whose entry has a mistake are not
   * also reported as naming an unknown carrier. Null when the file is no list of carriers at all:
   * then no id is known to be unknown.
   */
  ids: Set<string> | null;
  /** The line of each valid carrier's entry, by id. */
  lines: Map<string, number>;
}

/** `the file is missing`, naming a file of the folder named almost so (`Terminals.CSV`, `service_points.csv`). */
function missingFile(dir: string, file: string): string {
  const near = nearName(dir, file);
  return near ? `the file is missing (${near} is in the folder: named so, it is not read)` : 'the file is missing';
}

/** A file of `dir` whose name is `file`'s but for case, `-`, `_`, spaces and dots. */
function nearName(dir: string, file: string): string | undefined {
  const key = (name: string) => name.toLowerCase().replace(/[-_ .]/g, '');
  return readdirSync(dir).find((name) => name !== file && key(name) === key(file));
}

/** Reads carriers.json; each problem is reported on the line of its entry, or of the field it names. */
export function readCarriers(dir: string, findings: Findings): CarriersRead {
  const path = join(dir, CARRIERS_FILE);
  const error = (line: number, message: string) => findings.error(CARRIERS_FILE, line, message);
  const unread: CarriersRead = { carriers: [], ids: null, lines: new Map() };
  if (!existsSync(path)) {
    error(0, missingFile(dir, CARRIERS_FILE));
    return unread;
  }
  const root = readJson(path, error);
  if (root === null) return unread;
  if (root.type !== 'Array') {
    error(root.loc.start.line, 'must be a list of carriers: [ { "id": ... }, ... ]');
    return unread;
  }
  const read = { carriers: [] as CarrierInfo[], ids: new Set<string>(), lines: new Map<string, number>() };
  const firstLine = new Map<string, number>();
  for (const { value: node } of root.elements) {
    const line = node.loc.start.line;
    const value = evaluate(node);
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') {
      if (firstLine.has(id)) error(line, `carrier id "${id}" is already used on line ${firstLine.get(id)}`);
      else firstLine.set(id, line);
      read.ids.add(id);
    }
    const parsed = carrierSchema.safeParse(value);
    if (parsed.success) {
      read.carriers.push(parsed.data);
      read.lines.set(parsed.data.id, line);
    } else for (const issue of parsed.error.issues) error(lineOfField(node, issue.path) ?? line, issue.message);
  }
  if (read.ids.size > MAX_CARRIERS) error(1, `a dataset holds at most ${MAX_CARRIERS} carriers, this one has ${read.ids.size}`);
  return read;
}

/** The line of the field an issue names (`holidays.dates[2]`: that date's line), as deep as the entry has it. */
function lineOfField(entry: ValueNode, path: PropertyKey[]): number | undefined {
  let line: number | undefined;
  let node: ValueNode | undefined = entry;
  for (const key of path) {
    if (node?.type === 'Object') node = node.members.find((m) => m.name.type === 'String' && m.name.value === key)?.value;
    else if (node?.type === 'Array' && typeof key === 'number') node = node.elements[key]?.value;
    else node = undefined;
    if (node === undefined) break;
    line = node.loc.start.line;
  }
  return line;
}

/** A row of a table and the line it starts on; `row` holds the values that are valid. */
export interface NumberedRow<Row> {
  line: number;
  row: Partial<Row>;
}

/** A table's rows, and whether it could be read at all with the columns that identify a row. */
export interface Table<Row> {
  rows: NumberedRow<Row>[];
  /** False when the file, its header or one of its key columns is missing: other tables cannot be checked against it. */
  keyed: boolean;
}

/** The header a table needs, then those it may have: the docs' header, with what may be added to it. */
function headerHint<Row>(spec: TableSpec<Row>): string {
  const optional = spec.columns.filter((c) => spec.optional.has(c));
  const required = spec.columns.filter((c) => !spec.optional.has(c)).join(',');
  return optional.length === 0 ? required : `${required} (optional columns: ${optional.join(', ')})`;
}

/**
 * Reads a CSV table. A missing column the table needs is one error on the header line, and the
 * other columns are still checked on every row; a missing optional column reads as empty values.
 */
export function readTable<Row>(dir: string, spec: TableSpec<Row>, findings: Findings, source?: TableSource): Table<Row> {
  const file = source?.file ?? spec.file;
  const error = (line: number, message: string) => findings.error(file, line, message);
  const path = source?.path ?? join(dir, spec.file);
  if (!existsSync(path)) {
    if (spec.fileRequired || source) error(0, source ? 'the file is missing' : missingFile(dir, spec.file));
    else {
      // An optional file is no finding when absent, but one named almost so was surely meant.
      const near = nearName(dir, spec.file);
      if (near) findings.warning(file, 0, `is not in the folder, but ${near} is: named so, it is not read`);
    }
    return { rows: [], keyed: false };
  }
  const read = readText(path, error);
  if (read === null) return { rows: [], keyed: false };
  // Line endings are unified first: csv-parse counts a CRLF inside a quoted field as two lines.
  const records = csvRecords(read.replace(/\r\n?/g, '\n'), error);
  if (records.length === 0) {
    error(1, `the header line is missing: ${headerHint(spec)}`);
    return { rows: [], keyed: false };
  }
  // A carrier's own file (a mapping's source): its header in our names, its constant columns.
  const header = source ? source.header(records[0].record) : records[0].record;
  const constants = source?.constants ?? {};
  const headerLine = records[0].line;
  // A spreadsheet saved with another separator (a semicolon in much of Europe): one error, not
  // one per column the header then lacks and one per row.
  const separator = header.length === 1 ? OTHER_SEPARATORS.find(([character]) => header[0]!.includes(character)) : undefined;
  if (!source && separator) {
    error(headerLine, `the header is one column: its values are separated by ${separator[1]}, not commas (save the file as "CSV UTF-8 (Comma delimited)")`);
    return { rows: [], keyed: false };
  }
  const missing = spec.columns.filter((c) => !header.includes(c) && !(c in constants) && !spec.optional.has(c));
  for (const column of missing) error(headerLine, missingColumn(column, source));
  // A misspelt optional column would read as empty values without a word; a repeated one, as its first.
  // An unnamed one (a trailing comma, as some spreadsheets write) cannot be meant as one of ours.
  // A carrier's file has columns of its own: the ones the mapping leaves out are not ours to judge.
  const known = new Set<string>(spec.columns);
  header.forEach((column, i) => {
    if (column === '') return;
    if (header.indexOf(column) < i) error(headerLine, `the header has the "${column}" column twice`);
    else if (!known.has(column)) {
      const meant = spec.columns.find((c) => c.toLowerCase() === column.toLowerCase());
      const hint = meant ? `did you mean "${meant}"? Column names are case-sensitive` : `the columns are ${spec.columns.join(', ')}`;
      findings.warning(spec.file, headerLine, `the "${column}" column is not a column of ${spec.file}, and is not read (${hint})`);
    }
  });
  const present = spec.columns.filter((c) => header.includes(c) || c in constants);
  const position = new Map(present.map((c) => [c, header.indexOf(c)]));
  const absentOptional = spec.columns.filter((c) => !present.includes(c) && spec.optional.has(c));
  const cell = (record: string[], c: keyof Row & string) =>
    c in constants ? constants[c]! : source ? source.value(c, record[position.get(c)!]!) : record[position.get(c)!];
  const fields = spec.fields as Record<string, z.ZodType>;
  const schema = z.object(Object.fromEntries(present.map((c) => [c, fields[c]])));
  /** A key column's value as its field reads it (a carrier id lower-cased), else as written. */
  const key = (record: string[], c: keyof Row & string) => {
    const read = fields[c].safeParse(cell(record, c));
    return read.success ? read.data : cell(record, c);
  };

  const rows: NumberedRow<Row>[] = [];
  for (const { record, line } of records.slice(1)) {
    if (record.length !== header.length) {
      error(line, `this row has ${plural(record.length, 'value')}, the header has ${plural(header.length, 'column')}`);
      const keys = spec.keyColumns.filter((c) => position.has(c) && position.get(c)! < record.length);
      rows.push({ line, row: Object.fromEntries(keys.map((c) => [c, key(record, c)])) as Partial<Row> });
      continue;
    }
    const values = Object.fromEntries(present.map((c) => [c, cell(record, c)]));
    const parsed = schema.safeParse(values);
    const row: Record<string, unknown> = Object.fromEntries(absentOptional.map((c) => [c, '']));
    if (parsed.success) Object.assign(row, parsed.data);
    else {
      const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
      for (const issue of parsed.error.issues) error(line, issue.message);
      // Keep the valid values: the checks across rows still run on them.
      for (const c of present) {
        if (bad.has(c)) continue;
        const value = fields[c].safeParse(values[c]);
        if (value.success) row[c] = value.data;
      }
    }
    rows.push({ line, row: row as Partial<Row> });
  }
  return { rows, keyed: spec.keyColumns.every((c) => position.has(c)) };
}

/** Separators spreadsheets write in place of the comma, by name. */
const OTHER_SEPARATORS: readonly [string, string][] = [[';', 'semicolons'], ['\t', 'tabs'], ['|', 'vertical bars']];

function missingColumn(column: string, source: TableSource | undefined): string {
  if (!source) return `the header has no "${column}" column`;
  const theirs = source.nameOf(column);
  return theirs === undefined ? `the mapping names no column for ${column}` : `the header has no "${theirs}" column (the mapping's ${column})`;
}

/** A CSV record and the line it starts on. */
interface CsvRecord {
  record: string[];
  line: number;
}

/** After this many malformed records, the rest of the file is not read: fix these first. */
const MAX_MALFORMED = 100;

/**
 * The records of a CSV text. A malformed record (a stray or unclosed quote) is one error on the
 * line it starts on, and reading goes on from the next line: csv-parse would otherwise stay inside
 * the broken quotes and swallow the rows after it without a word.
 */
function csvRecords(text: string, error: (line: number, message: string) => void): CsvRecord[] {
  const lines = text.split('\n');
  const records: CsvRecord[] = [];
  for (let skipped = 0, malformed = 0; ; ) {
    // Each pass parses the text from line skipped + 1 and stops at its first malformed record.
    let failure: CsvError | undefined;
    let lastLine = skipped;
    try {
      parse(skipped === 0 ? text : lines.slice(skipped).join('\n'), {
        info: true, raw: true, relax_column_count: true, skip_empty_lines: true, trim: true,
        // A row of commas alone is how a spreadsheet saves a blank row: no data, as a blank line.
        skip_records_with_empty_values: true,
        skip_records_with_error: true,
        // With `info` and `raw`, each record arrives with the lines read so far and its own text.
        on_record: (read: unknown) => {
          const { record, info, raw } = read as { record: string[]; info: { lines: number }; raw: string };
          lastLine = skipped + info.lines;
          // The line a record starts on, also for one spanning several lines (its raw text can
          // carry the blank lines skipped before it).
          records.push({ record, line: lastLine - (raw.replace(/^\n+/, '').replace(/\n$/, '').split('\n').length - 1) });
          return null;
        },
        on_skip: (err: CsvError | undefined) => {
          failure = err;
          throw err;
        },
      } satisfies CsvOptions);
    } catch (err) {
      if (failure === undefined) throw err;
    }
    if (failure === undefined) return records;
    // The malformed record starts on the first line after the last good one that is not blank.
    let start = lastLine;
    while (start < lines.length - 1 && lines[start]!.trim() === '') start++;
    error(start + 1, describeCsvError(failure));
    if (++malformed === MAX_MALFORMED) {
      error(start + 1, `${MAX_MALFORMED} malformed lines: the rest of the file is not read until these are fixed`);
      return records;
    }
    skipped = start + 1;
  }
}

function describeCsvError(err: CsvError): string {
  switch (err.code) {
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted value is followed by more text before the next comma: put the whole value in quotes, and write a quote inside it as ""';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside a value that is not in quotes: put the whole value in quotes, and write a quote inside it as ""';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted value opened on this line is never closed';
    default:
      return err.message;
  }
}
