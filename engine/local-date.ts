// The calendar date and time of day at a place: the IANA time zone of its point (from
// @photostructure/tz-lookup, a compact map of the zone boundaries), then that zone's date and
// clock at the given instant.

import tzlookup from '@photostructure/tz-lookup';

/** One formatter per zone: creating an Intl.DateTimeFormat costs far more than formatting with one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The IANA time zone of a point, such as America/Chicago. */
export function timeZoneAt(lat: number, lng: number): string {
  return tzlookup(lat, lng);
}

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

/** `YYYY-MM-DD` of the instant `now` in the time zone of the point. */
export function localDate(now: Date, lat: number, lng: number): string {
  return localClock(now, timeZoneAt(lat, lng)).date;
}
