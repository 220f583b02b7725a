// A carrier as a dataset's carriers.json describes it: what it is, where the API lists it, and
// what it offers. Every per-carrier behaviour follows from these fields, never from a carrier id.

import { DATE_RANGE, HOLIDAY_CALENDARS, ISO_DATE, isCalendarDate } from './holidays.js';
import * as z from './zod.js';

/** The message of a field's issue in words: what is missing or wrong, with the value given. */
const says = (field: string, expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} ${JSON.stringify(issue.input)} ${expected}`;

/** The fields of an object that its schema does not have: `unknown field "color"`, `unknown fields "a", "b"`. */
export const unknownFields = (keys: readonly string[]) => `unknown field${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`;

const flag = (field: string) => z.boolean({ error: says(field, 'must be true or false') });

/** A real calendar date written YYYY-MM-DD: 2026-02-30 is a typing slip, not a day. */
export const isoDateSchema = (field: string) =>
  z
    .string({ error: says(field, 'must be a date written YYYY-MM-DD') })
    .check(
      z.regex(ISO_DATE, { error: says(field, 'must be a date written YYYY-MM-DD') }),
      // Only of a date written right: "2026-2-3" is one mistake, told once.
      z.refine((d: string) => !ISO_DATE.test(d) || isCalendarDate(d), { error: says(field, 'is not a day of the calendar') }),
    );

/** A carrier's holiday: a calendar date a query can name (0206-12-24 is a typing slip for 2026). */
const holidayDateSchema = () =>
  isoDateSchema('holidays.dates').check(
    z.refine((d: string) => !ISO_DATE.test(d) || (d >= DATE_RANGE.from && d <= DATE_RANGE.to), {
      error: says('holidays.dates', `is outside ${DATE_RANGE.from} to ${DATE_RANGE.to}, the dates a query may name`),
    }),
  );

/** The days the carrier neither picks up nor delivers: a named calendar, its own dates, or both. */
const holidaysSchema = () =>
  z
    .strictObject(
      {
        calendar: z.optional(z.enum(HOLIDAY_CALENDARS, { error: says('holidays.calendar', `must be one of ${HOLIDAY_CALENDARS.join(', ')}`) })),
        dates: z.optional(
          z.array(holidayDateSchema(), { error: says('holidays.dates', 'must be a list of dates written YYYY-MM-DD') }).check(
            // Told at the repeat, so the dataset check names the line to delete.
            z.check<string[]>((ctx) => {
              const seen = new Set<string>();
              ctx.value.forEach((date, i) => {
                if (seen.has(date)) ctx.issues.push({ code: 'custom', message: `holidays.dates lists ${date} twice`, input: date, path: [i] });
                seen.add(date);
              });
            }),
          ),
        ),
      },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `holidays: ${unknownFields(issue.keys)} (it has "calendar" and "dates")`
            : 'holidays must be an object: { "calendar": "us-ltl", "dates": ["2026-12-24"] }',
      },
    )
    .check(
      z.refine((h) => h.calendar !== undefined || (h.dates?.length ?? 0) > 0, {
        error: 'holidays names no calendar and no date: give "calendar", "dates" or both, or leave holidays out',
      }),
    );

/**
 * A carrier of carriers.json, as the build checks it. Built on its first use: the query runtime
 * loads carriers a build has checked and compiled, and never builds it.
 */
export const carrierSchema = z.lazy(() =>
  z.strictObject(
    {
      id: z.string({ error: says('id', 'must be text') }).check(
        z.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, {
          error: says('id', 'must be lower-case letters, digits and dashes (at most 40), such as "my-carrier"'),
        }),
      ),
      name: z.string({ error: says('name', 'must be text') }).check(z.minLength(1, { error: () => 'name is required' })),
      scac: z.string({ error: says('scac', 'must be text') }).check(z.regex(/^[A-Z0-9]{2,4}$/, { error: says('scac', 'must be 2-4 upper-case letters or digits') })),
      kind: z.enum(['ltl', 'freight', 'worldwide', 'postal'], { error: says('kind', 'must be one of ltl, freight, worldwide, postal') }),
      /** In the unified endpoints' scope. */
      unified: flag('unified'),
      /** Accepted by can-reach. */
      canReach: flag('canReach'),
      /** The query parameter of its list endpoint. */
      lookup: z.enum(['zip', 'country_code', 'region', 'state', 'country'], {
        error: says('lookup', 'must be one of zip, country_code, region, state, country'),
      }),
      /** Service days, transit times and carrier metadata from its points-served rows. */
      schedules: z._default(flag('schedules'), false),
      /** The path word of its page of the points a terminal serves: `/station/:num` or `/terminal/:num`. */
      terminalRoute: z._default(z.enum(['station', 'terminal'], { error: says('terminalRoute', 'must be "station" or "terminal"') }), 'terminal'),
      /** Days without pickup or delivery, skipped by the schedule endpoints. */
      holidays: z.optional(holidaysSchema()),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? unknownFields(issue.keys)
          : 'each carrier must be an object: { "id": ..., "name": ..., ... }',
    },
  ),
);

/**
 * A carrier id as a caller typed it (`My-Carrier`, ` my-carrier`), as the dataset spells it: ids are
 * lower-case (carrierSchema), so neither case nor surrounding spaces can tell two carriers apart.
 */
export function carrierIdOf(text: string): string {
  return text.trim().toLowerCase();
}

export type CarrierInfo = z.output<typeof carrierSchema>;
export type CarrierKind = CarrierInfo['kind'];
export type LookupParam = CarrierInfo['lookup'];

/** A carrier of a loaded engine: its carriers.json entry, and whether the dataset has points-served rows for it. */
export type Carrier = CarrierInfo & { readonly pointsServed: boolean };

/** A per-carrier query: one of the routes under `/api/<id>-location`. */
export type CarrierQuery = 'locations' | 'search' | 'coverage' | 'terminalPoints' | 'batch' | 'country' | 'schedules' | 'network';

/**
 * Why a carrier does not answer a per-carrier query, or null when it does: the one rule behind both
 * the routes the API serves for a carrier (none: a 404) and the engine's per-carrier methods (a
 * NotFoundError, so a library call fails where the route would). Postal carriers are asked through
 * the drop-point queries instead.
 */
export function unansweredQuery(carrier: Carrier, query: CarrierQuery): string | null {
  const { id, lookup } = carrier;
  if (carrier.kind === 'postal') return `${id} is a postal carrier: its locations are asked through the drop-point queries`;
  switch (query) {
    case 'terminalPoints':
      return carrier.pointsServed ? null : `${id} has no points-served rows in this dataset, so no terminal pages`;
    case 'batch':
      return lookup === 'zip' || lookup === 'country_code' ? null : `${id} is listed by ${lookup}: only carriers listed by zip or country_code have a batch`;
    case 'country':
      return lookup === 'country_code' ? null : `${id} is listed by ${lookup}, not by country_code`;
    case 'schedules':
      return carrier.schedules ? null : `${id} has no schedules in this dataset`;
    default:
      return null;
  }
}
