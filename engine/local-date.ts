// The calendar date at a place: the IANA time zone of its point (from @photostructure/tz-lookup,
// a compact map of the zone boundaries), then that zone's date at the given instant.

import tzlookup from '@photostructure/tz-lookup';

/** One formatter per zone: creating an Intl.DateTimeFormat costs far more than formatting with one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of the instant `now` in the time zone of the point. */
export function localDate(now: Date, lat: number, lng: number): string {
  const zone = tzlookup(lat, lng);
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day}`;
}
