// Holiday calendars: the days a carrier neither picks up nor delivers. A named calendar is computed
// by rule for any year; a carrier adds its own dates beside it (carriers.json `holidays`).
//
// The rules are a few lines of date arithmetic rather than `date-holidays`: that package carries
// every country's calendar (well over a megabyte) to answer six dates, its US set is the federal
// one (Juneteenth, Columbus Day, Veterans Day...) to be filtered by name, and what LTL carriers
// close on is a freight-industry convention of its own, not a country's law.

/** A date as YYYY-MM-DD (UTC calendar arithmetic: a date has no time zone). */
export type IsoDate = string;

const DAY_MS = 86_400_000;

/** The calendars a carrier may name. */
export const HOLIDAY_CALENDARS = ['us-ltl'] as const;
export type HolidayCalendarName = (typeof HOLIDAY_CALENDARS)[number];

/** Day number (days since 1970-01-01) of a date. */
export function dayNumber(date: IsoDate): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

/**
 * The dates a query may name: a `date` or `ship_date`, the clock of a library caller, a carrier's
 * own holiday.
 */
export const DATE_RANGE = { from: '1970-01-01', to: '2999-12-24' } as const;

/** How a date is written: YYYY-MM-DD. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether YYYY-MM-DD text names a day of the calendar: 2026-02-30 and 2026-13-01 name none. */
export function isCalendarDate(date: string): boolean {
  const time = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(date);
}

export function dateOfDay(day: number): IsoDate {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Monday = 0 ... Sunday = 6: the bit order of a service-day mask. */
export function weekdayOf(day: number): number {
  // 1970-01-01 was a Thursday (3).
  return (((day + 3) % 7) + 7) % 7;
}

const utcDay = (year: number, month: number, date: number) => Date.UTC(year, month - 1, date) / DAY_MS;

/** The day of the n-th given weekday (Monday = 0) of a month; n = -1 for the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = utcDay(year, month, 1);
    return first + ((weekday - weekdayOf(first) + 7) % 7) + (n - 1) * 7;
  }
  const last = utcDay(year, month + 1, 0);
  return last - ((weekdayOf(last) - weekday + 7) % 7);
}

/** A fixed-date holiday on a Saturday is kept the Friday before, on a Sunday the Monday after. */
function observed(day: number): number {
  const weekday = weekdayOf(day);
  return weekday === 5 ? day - 1 : weekday === 6 ? day + 1 : day;
}

/**
 * The us-ltl holidays of a year's rules: New Year's Day, Memorial Day (last Monday of May),
 * Independence Day, Labor Day (first Monday of September), Thanksgiving (fourth Thursday of
 * November), Christmas Day, fixed dates on their observed weekday. New Year's Day of a year can be
 * kept on December 31 of the year before (2028-01-01 is a Saturday: kept 2027-12-31).
 */
function usLtlRules(year: number): Holiday[] {
  return [
    { day: observed(utcDay(year, 1, 1)), name: "New Year's Day" },
    { day: nthWeekday(year, 5, 0, -1), name: 'Memorial Day' },
    { day: observed(utcDay(year, 7, 4)), name: 'Independence Day' },
    { day: nthWeekday(year, 9, 0, 1), name: 'Labor Day' },
    { day: nthWeekday(year, 11, 3, 4), name: 'Thanksgiving Day' },
    { day: observed(utcDay(year, 12, 25)), name: 'Christmas Day' },
  ];
}

interface Holiday {
  day: number;
  name: string;
}

const RULES: Record<HolidayCalendarName, (year: number) => Holiday[]> = { 'us-ltl': usLtlRules };

/** A holiday as the schedule answers list it. */
export interface HolidayDate {
  date: IsoDate;
  name: string;
}

/** The holidays kept in a calendar year, ascending. */
export function calendarHolidays(name: HolidayCalendarName, year: number): HolidayDate[] {
  const rules = RULES[name];
  const from = utcDay(year, 1, 1);
  const to = utcDay(year + 1, 1, 1);
  // The next year's New Year's Day can be kept in this one.
  return [...rules(year), ...rules(year + 1)]
    .filter((h) => h.day >= from && h.day < to)
    .sort((a, b) => a.day - b.day)
    .map((h) => ({ date: dateOfDay(h.day), name: h.name }));
}

/** A carrier's holidays as carriers.json states them. */
export interface HolidaySpec {
  calendar?: HolidayCalendarName | undefined;
  dates?: readonly IsoDate[] | undefined;
}

/** The name the answers give a date of a carrier's own list. */
const OWN_HOLIDAY = 'carrier holiday';

/** A carrier's holidays by day: its calendar's, computed a year at a time on first use, and its own dates. */
export class Holidays {
  private readonly own: Set<number>;
  private readonly years = new Map<number, Map<number, string>>();

  constructor(private readonly spec: HolidaySpec | undefined) {
    this.own = new Set((spec?.dates ?? []).map(dayNumber));
  }

  /** The holiday's name, or undefined on a working day. A calendar's name wins over the carrier's own list. */
  nameOf(day: number): string | undefined {
    const calendar = this.spec?.calendar;
    if (calendar !== undefined) {
      const year = new Date(day * DAY_MS).getUTCFullYear();
      let days = this.years.get(year);
      if (days === undefined) {
        days = new Map(calendarHolidays(calendar, year).map((h) => [dayNumber(h.date), h.name]));
        this.years.set(year, days);
      }
      const name = days.get(day);
      if (name !== undefined) return name;
    }
    return this.own.has(day) ? OWN_HOLIDAY : undefined;
  }

  has(day: number): boolean {
    return this.nameOf(day) !== undefined;
  }

  /** The holidays of the days [from, to), ascending. */
  between(from: number, to: number): HolidayDate[] {
    const out: HolidayDate[] = [];
    for (let day = from; day < to; day++) {
      const name = this.nameOf(day);
      if (name !== undefined) out.push({ date: dateOfDay(day), name });
    }
    return out;
  }
}
