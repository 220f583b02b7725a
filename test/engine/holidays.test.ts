// The us-ltl calendar against dates read off a calendar by hand, and against a plain day-by-day
// reference written here: each day is asked whether it is one of the six holidays or the weekday
// that keeps one, with no week arithmetic shared with the engine.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calendarHolidays, Holidays, dayNumber } from '../../engine/holidays.js';
import { referenceIsHoliday } from '../support/holiday-reference.js';

const dates = (year: number) => calendarHolidays('us-ltl', year).map((h) => h.date);

describe('the us-ltl calendar, by hand', () => {
  it('2026: July 4 is a Saturday, kept Friday July 3', () => {
    expect(calendarHolidays('us-ltl', 2026)).toEqual([
      { date: '2026-01-01', name: "New Year's Day" },
      { date: '2026-05-25', name: 'Memorial Day' },
      { date: '2026-07-03', name: 'Independence Day' },
      { date: '2026-09-07', name: 'Labor Day' },
      { date: '2026-11-26', name: 'Thanksgiving Day' },
      { date: '2026-12-25', name: 'Christmas Day' },
    ]);
  });

  it('2027: Christmas on a Saturday is kept Friday 12-24, and New Year 2028 (a Saturday) Friday 12-31', () => {
    expect(dates(2027)).toEqual(['2027-01-01', '2027-05-31', '2027-07-05', '2027-09-06', '2027-11-25', '2027-12-24', '2027-12-31']);
    // 2028 itself keeps no January 1: it was kept in 2027.
    expect(dates(2028)).toEqual(['2028-05-29', '2028-07-04', '2028-09-04', '2028-11-23', '2028-12-25']);
  });

  it('2022: Christmas on a Sunday is kept Monday 12-26; New Year 2023 on a Sunday, Monday 01-02', () => {
    // 2022-01-01 was a Saturday, kept Friday 2021-12-31.
    expect(dates(2021).at(-1)).toBe('2021-12-31');
    expect(dates(2022)).toEqual(['2022-05-30', '2022-07-04', '2022-09-05', '2022-11-24', '2022-12-26']);
    expect(dates(2023)).toEqual(['2023-01-02', '2023-05-29', '2023-07-04', '2023-09-04', '2023-11-23', '2023-12-25']);
  });

  it("a carrier's own dates join its calendar", () => {
    const holidays = new Holidays({ calendar: 'us-ltl', dates: ['2026-11-27', '2026-12-24'] });
    expect(holidays.between(dayNumber('2026-11-20'), dayNumber('2026-12-31'))).toEqual([
      { date: '2026-11-26', name: 'Thanksgiving Day' },
      { date: '2026-11-27', name: 'carrier holiday' },
      { date: '2026-12-24', name: 'carrier holiday' },
      { date: '2026-12-25', name: 'Christmas Day' },
    ]);
    expect(new Holidays({ dates: ['2026-11-27'] }).has(dayNumber('2026-11-26'))).toBe(false);
  });

  it("a carrier's own date on a day its calendar keeps is named by the calendar, once", () => {
    const holidays = new Holidays({ calendar: 'us-ltl', dates: ['2026-12-25', '2026-12-24'] });
    expect(holidays.nameOf(dayNumber('2026-12-25'))).toBe('Christmas Day');
    expect(holidays.between(dayNumber('2026-12-24'), dayNumber('2026-12-26'))).toEqual([
      { date: '2026-12-24', name: 'carrier holiday' },
      { date: '2026-12-25', name: 'Christmas Day' },
    ]);
  });
});

describe('the us-ltl calendar against a day-by-day reference', () => {
  it('agrees on every day of random years', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1971, max: 2998 }), (year) => {
        const expected: string[] = [];
        for (let d = new Date(Date.UTC(year, 0, 1)); d.getUTCFullYear() === year; d = new Date(d.getTime() + 86_400_000)) {
          if (referenceIsHoliday(d)) expected.push(d.toISOString().slice(0, 10));
        }
        expect(dates(year)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
