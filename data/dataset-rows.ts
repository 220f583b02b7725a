// The two CSV tables of a dataset: their columns, which ones may be left out, and the zod schema of
// each column's value. Every message names the column and the value, as a spreadsheet user sees it.

import * as z from 'zod';

/** A CSV table of a dataset directory. */
export interface TableSpec<Row> {
  file: string;
  /** Whether the dataset needs the file at all. */
  fileRequired: boolean;
  /** Every column, in the documented order. */
  columns: readonly (keyof Row & string)[];
  /** Columns a file may leave out: their values are then empty. */
  optional: ReadonlySet<string>;
  /**
   * The columns other rows refer to a row by. They are kept even from a row with a value too many
   * or too few, so that the rows referring to it are not reported as well.
   */
  keyColumns: readonly (keyof Row & string)[];
  /** The schema of each column's value. */
  fields: { [K in keyof Row]: z.ZodType<Row[K], string> };
}

/** Longest text a column holds; longer is a pasting accident, not an address. */
const MAX_TEXT = 200;

function text(column: string) {
  return z
    .string()
    .max(MAX_TEXT, { error: () => `${column} is longer than ${MAX_TEXT} characters` })
    .refine((s) => !s.includes('\u0000'), { error: () => `${column} contains a NUL character` });
}

/** A 2-letter state code upper-case; any other text (a division's name outside the US) as written. */
function stateCodeCase(state: string): string {
  return /^[a-z]{2}$/i.test(state) ? state.toUpperCase() : state;
}

function requiredText(column: string) {
  return text(column).refine((s) => s !== '', { error: () => `${column} is required`, abort: true });
}

/** A carrier's id in any case, as a query takes one (spreadsheets capitalize), stored as carriers.json has it: lower-case. */
const carrierId = () => requiredText('carrier').transform((id) => id.toLowerCase());

/** Plain decimals only, as a spreadsheet writes them: no hex, exponent or thousands separator. */
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

function coordinate(column: string, min: number, max: number) {
  const outOfRange = (issue: { input?: unknown }) => `${column} ${String(issue.input)} is not between ${min} and ${max}`;
  return z
    .string()
    .min(1, { error: () => `${column} is required`, abort: true })
    .regex(DECIMAL, { error: (issue) => `${column} "${String(issue.input)}" is not a number` })
    .transform(Number)
    .pipe(z.number().min(min, { error: outOfRange }).max(max, { error: outOfRange }));
}

export interface TerminalRow {
  carrier: string;
  terminalCode: string;
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  phone: string;
  fax: string;
  email: string;
  latitude: number;
  longitude: number;
  region: string;
}

export const TERMINALS: TableSpec<TerminalRow> = {
  file: 'terminals.csv',
  fileRequired: true,
  columns: [
    'carrier', 'terminalCode', 'name', 'line1', 'line2', 'city', 'state', 'zipCode', 'country',
    'phone', 'fax', 'email', 'latitude', 'longitude', 'region',
  ],
  optional: new Set(['line2', 'fax', 'email', 'region']),
  keyColumns: ['carrier', 'terminalCode'],
  fields: {
    carrier: carrierId(),
    terminalCode: requiredText('terminalCode'),
    name: requiredText('name'),
    line1: text('line1'),
    line2: text('line2'),
    city: text('city'),
    // A code in any case, as a query takes one, stored as look-ups match it: upper-case.
    state: text('state').transform(stateCodeCase),
    zipCode: text('zipCode'),
    // In any case, as the state's code is read; stored as look-ups by country match it: upper-case.
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, {
        error: (issue) => (issue.input === '' ? 'country is required' : `country "${String(issue.input)}" is not a 2-letter country code such as US or CA`),
      })
      .transform((code) => code.toUpperCase()),
    phone: text('phone'),
    fax: text('fax'),
    email: text('email'),
    latitude: coordinate('latitude', -90, 90),
    longitude: coordinate('longitude', -180, 180),
    region: text('region'),
  },
};

export interface ServicePointRow {
  carrier: string;
  zip: string;
  city: string;
  state: string;
  terminalCode: string;
  direct: boolean;
  serviceDays: string;
  addOnDays: number;
  /** `HH:MM` local time at the point, '' when the carrier states none. */
  cutoffTime: string;
  highCost: boolean;
  highCostNote: string;
  /** The SCAC of the partner that serves an interline point (direct false), upper-case; '' for none. */
  interlineScac: string;
}

export const SERVICE_POINTS: TableSpec<ServicePointRow> = {
  file: 'service-points.csv',
  fileRequired: false,
  columns: ['carrier', 'zip', 'city', 'state', 'terminalCode', 'direct', 'serviceDays', 'addOnDays', 'cutoffTime', 'highCost', 'highCostNote', 'interlineScac'],
  optional: new Set(['cutoffTime', 'highCost', 'highCostNote', 'interlineScac']),
  keyColumns: [],
  fields: {
    carrier: carrierId(),
    zip: z.string().regex(/^\d{5}$/, { error: (issue) => notAZip('zip', String(issue.input), false) }),
    city: text('city'),
    state: z.string().regex(/^[A-Za-z]{2}$/, { error: (issue) => `state "${String(issue.input)}" is not a 2-letter state code` }).transform(stateCodeCase),
    terminalCode: requiredText('terminalCode'),
    // In any case: spreadsheets write TRUE and FALSE.
    direct: z
      .string()
      .regex(/^(true|false)$/i, { error: (issue) => `direct "${String(issue.input)}" must be true or false` })
      .transform((v) => v.toLowerCase() === 'true'),
    // In any case, as a mapping's letters are read; a point with no day served has no pickup.
    serviceDays: z
      .string()
      .min(1, { error: () => 'serviceDays is empty: give the days the point is served, letters of MTWRFSU such as MTWRF', abort: true })
      .regex(/^M?T?W?R?F?S?U?$/i, {
        error: (issue) => `serviceDays "${String(issue.input)}" must be letters of MTWRFSU in that order, such as MTWRF or TR`,
      })
      .transform((days) => days.toUpperCase()),
    addOnDays: z
      .string()
      .regex(/^\d{1,2}$/, { error: (issue) => `addOnDays "${String(issue.input)}" is not a whole number from 0 to 99` })
      .transform(Number),
    cutoffTime: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, {
      error: (issue) => `cutoffTime "${String(issue.input)}" is not a time of day written HH:MM (24-hour, such as 16:30)`,
    }),
    // Empty is false: a column most rows leave blank.
    highCost: z
      .string()
      .regex(/^(true|false)?$/i, { error: (issue) => `highCost "${String(issue.input)}" must be true, false or empty` })
      .transform((v) => v.toLowerCase() === 'true'),
    highCostNote: text('highCostNote'),
    interlineScac: z
      .string()
      .regex(/^([A-Za-z]{2,4})?$/, { error: (issue) => `interlineScac "${String(issue.input)}" is not a SCAC: 2-4 letters, such as ABFS` })
      .transform((v) => v.toUpperCase()),
  },
};

/** A terminal row's US ZIP: 5 digits, or ZIP+4 (12345-6789). */
const US_ZIP = /^\d{5}(-\d{4})?$/;

/** The number of a terminal row's US ZIP (the first 5 digits of a ZIP+4), or -1 when it is not one. */
export function usZipCode(zipCode: string): number {
  return US_ZIP.test(zipCode) ? Number(zipCode.slice(0, 5)) : -1;
}

/**
 * Why a ZIP column's value is not a ZIP, with what most likely happened: a spreadsheet that read
 * the column as numbers (ZIPs in New England, New Jersey and Puerto Rico start with 0, and lose it),
 * or a ZIP+4 where only 5 digits are taken. `of` follows the value: ' of a US location'.
 */
export function notAZip(column: string, value: string, plus4Allowed: boolean, of = ''): string {
  const message = `${column} "${value}"${of} is not a 5-digit ZIP code${plus4Allowed ? ' or ZIP+4 (12345-6789)' : ''}`;
  if (/^\d{3,4}$/.test(value)) {
    return `${message}: if it was ${value.padStart(5, '0')}, a spreadsheet that read the column as numbers dropped its leading zeros (format the column as text)`;
  }
  if (!plus4Allowed && US_ZIP.test(value)) return `${message}: this is a ZIP+4; give its first 5 digits, ${value.slice(0, 5)}`;
  return message;
}

/** A terminal's key, as the points-served rows name it: its carrier and terminal code. */
export const terminalKey = (carrier: string, terminalCode: string): string => `${carrier}\u0000${terminalCode}`;
