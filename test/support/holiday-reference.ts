// The us-ltl calendar as a plain day-by-day reference for the tests: each day is asked whether it
// is one of the six holidays or the weekday that keeps one, with no week arithmetic shared with
// the engine.

export /** Whether a day (a UTC Date) is a us-ltl holiday, asked of that day alone. */
function referenceIsHoliday(d: Date): boolean {
  const month = d.getUTCMonth() + 1;
  const date = d.getUTCDate();
  const weekday = d.getUTCDay(); // Sunday = 0
  const daysInMonth = new Date(Date.UTC(d.getUTCFullYear(), month, 0)).getUTCDate();
  const fixed = (m: number, day: number) => month === m && date === day;
  const isFixed = (x: Date) => [[1, 1], [7, 4], [12, 25]].some(([m, day]) => x.getUTCMonth() + 1 === m && x.getUTCDate() === day);
  const shifted = (by: number) => new Date(d.getTime() + by * 86_400_000);
  if (weekday >= 1 && weekday <= 5 && (fixed(1, 1) || fixed(7, 4) || fixed(12, 25))) return true;
  if (weekday === 5 && isFixed(shifted(1))) return true; // Saturday's holiday, kept Friday
  if (weekday === 1 && isFixed(shifted(-1))) return true; // Sunday's, kept Monday
  if (month === 5 && weekday === 1 && date + 7 > daysInMonth) return true; // last Monday of May
  if (month === 9 && weekday === 1 && date <= 7) return true; // first Monday of September
  if (month === 11 && weekday === 4 && date >= 22 && date <= 28) return true; // fourth Thursday
  return false;
}

/** Whether a YYYY-MM-DD date is a us-ltl holiday. */
export const isReferenceHoliday = (date: string): boolean => referenceIsHoliday(new Date(`${date}T00:00:00Z`));
