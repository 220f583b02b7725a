// The calendar date and time of day in an IANA time zone (the snapshot holds each place's: its
// TimeZoneTables) at a given instant.

/** One formatter per zone: creating an Intl.DateTimeFormat costs far more than formatting with one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local date (`YYYY-MM-DD`) and minutes after local midnight of the instant `now` in a zone. */
export function localClock(now: Date, zone: string): { date: string; minutes: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  return { date: `${part.year}-${part.month}-${part.day}`, minutes: Number(part.hour) * 60 + Number(part.minute) };
}
