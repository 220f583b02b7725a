// Reads the files of a dataset directory into numbered rows, reporting every malformed value on its
// line: carriers.json with jsonc-parser (which keeps each entry's position), the CSV tables with
// csv-parse, each row validated with its table's zod schemas.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type CsvError } from 'csv-parse/sync';
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { carrierSchema, type CarrierInfo } from './carriers.js';
import type { TableSpec } from './dataset-rows.js';
import type { Findings } from './findings.js';

export const CARRIERS_FILE = 'carriers.json';

/** Most carriers a dataset may hold: the network numbers them in one byte. */
const MAX_CARRIERS = 250;

export interface CarriersRead {
  /** The valid entries, in file order. */
  carriers: CarrierInfo[];
  /**
   * The id of every entry, valid or not: rows naming a carrier whose entry has a mistake are not
   * also reported as naming an unknown carrier.
   */
  ids: Set<string>;
}

/** Reads carriers.json; each problem is reported on the line of its entry, or of the field it names. */
export function readCarriers(dir: string, findings: Findings): CarriersRead {
  const path = join(dir, CARRIERS_FILE);
  const error = (line: number, message: string) => findings.error(CARRIERS_FILE, line, message);
  const read: CarriersRead = { carriers: [], ids: new Set() };
  if (!existsSync(path)) {
    error(0, 'the file is missing');
    return read;
  }
  const text = readFileSync(path, 'utf8');
  const lineAt = lineFinder(text);
  const syntax: ParseError[] = [];
  const root = parseTree(text, syntax, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (syntax.length > 0) {
    for (const e of syntax) error(lineAt(e.offset), `not valid JSON: ${describeJsonError(printParseErrorCode(e.error))}`);
    return read;
  }
  if (root?.type !== 'array') {
    error(root ? lineAt(root.offset) : 1, 'must be a list of carriers: [ { "id": ... }, ... ]');
    return read;
  }
  const firstLine = new Map<string, number>();
  for (const node of root.children ?? []) {
    const line = lineAt(node.offset);
    const value: unknown = getNodeValue(node);
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') {
      if (firstLine.has(id)) error(line, `carrier id "${id}" is already used on line ${firstLine.get(id)}`);
      else firstLine.set(id, line);
      read.ids.add(id);
    }
    const parsed = carrierSchema.safeParse(value);
    if (parsed.success) read.carriers.push(parsed.data);
    else for (const issue of parsed.error.issues) error(lineOfField(node, issue.path, lineAt) ?? line, issue.message);
  }
  if (read.ids.size > MAX_CARRIERS) error(1, `a dataset holds at most ${MAX_CARRIERS} carriers, this one has ${read.ids.size}`);
  return read;
}

/** The line of the field an issue names inside an entry, when the entry has that field. */
function lineOfField(entry: Node, path: PropertyKey[], lineAt: (offset: number) => number): number | undefined {
  if (path.length === 0) return undefined;
  const field = findNodeAtLocation(entry, path.map((p) => (typeof p === 'number' ? p : String(p))));
  return field?.parent ? lineAt(field.parent.offset) : undefined;
}

function describeJsonError(code: string): string {
  const words: Record<string, string> = {
    CommaExpected: 'a comma is missing before this',
    PropertyNameExpected: 'a field name in double quotes is expected (is there a trailing comma?)',
    ValueExpected: 'a value is expected (is there a trailing comma?)',
    ColonExpected: 'a colon is missing after a field name',
    CloseBraceExpected: 'a } is missing',
    CloseBracketExpected: 'a ] is missing',
    EndOfFileExpected: 'there is text after the list',
    InvalidSymbol: 'unexpected text (field names and text values need double quotes)',
    UnexpectedEndOfString: 'a text value is not closed with a double quote',
    InvalidCommentToken: 'comments are not allowed',
  };
  return words[code] ?? code;
}

/** 1-based line of a character offset. */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** A row of a table and the line it starts on; `row` holds the values that are valid. */
export interface NumberedRow<Row> {
  line: number;
  row: Partial<Row>;
}

/**
 * Reads a CSV table. A missing column the table needs is one error on the header line, and the
 * other columns are still checked on every row; a missing optional column reads as empty values.
 */
export function readTable<Row>(dir: string, spec: TableSpec<Row>, findings: Findings): NumberedRow<Row>[] {
  const error = (line: number, message: string) => findings.error(spec.file, line, message);
  const path = join(dir, spec.file);
  if (!existsSync(path)) {
    if (spec.fileRequired) error(0, 'the file is missing');
    return [];
  }
  // Line endings are unified first: csv-parse counts a CRLF inside a quoted field as two lines.
  const text = readFileSync(path, 'utf8').replace(/\r\n?/g, '\n');
  const records = parse(text, {
    bom: true, info: true, raw: true, relax_column_count: true, skip_empty_lines: true, trim: true,
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      if (err) error(Number(err.lines) || 1, describeCsvError(err));
    },
  }) as unknown as { record: string[]; info: { lines: number }; raw: string }[];
  if (records.length === 0) {
    error(1, `the header line is missing: ${spec.columns.join(',')}`);
    return [];
  }
  const header = records[0].record;
  const missing = spec.columns.filter((c) => !header.includes(c) && !spec.optional.has(c));
  for (const column of missing) error(1, `the header has no "${column}" column`);
  const present = spec.columns.filter((c) => header.includes(c));
  const position = new Map(present.map((c) => [c, header.indexOf(c)]));
  const absentOptional = spec.columns.filter((c) => !header.includes(c) && spec.optional.has(c));
  const fields = spec.fields as Record<string, z.ZodType>;
  const schema = z.object(Object.fromEntries(present.map((c) => [c, fields[c]])));

  const rows: NumberedRow<Row>[] = [];
  for (const { record, info, raw } of records.slice(1)) {
    // The line a record starts on, also for records spanning several lines (a record's raw text
    // can carry the blank lines skipped before it).
    const line = info.lines - (raw.replace(/^\n+/, '').replace(/\n$/, '').split('\n').length - 1);
    if (record.length !== header.length) {
      error(line, `this row has ${record.length} values, the header has ${header.length} columns`);
      const keys = spec.keyColumns.filter((c) => position.has(c) && position.get(c)! < record.length);
      rows.push({ line, row: Object.fromEntries(keys.map((c) => [c, record[position.get(c)!]])) as Partial<Row> });
      continue;
    }
    const values = Object.fromEntries(present.map((c) => [c, record[position.get(c)!]]));
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
  return rows;
}

function describeCsvError(err: CsvError): string {
  switch (err.code) {
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted value is followed by more text before the next comma: put the whole value in quotes';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted value is never closed: the file ends inside quotes';
    default:
      return err.message;
  }
}
