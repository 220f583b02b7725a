// The schedule endpoints of carriers with `schedules: true`: service days at a point, transit time
// between two points, and the carrier metadata for a point. All read the points-served row of the ZIP.

import type { Gazetteer } from './gazetteer.js';
import { distanceMiles, roundMiles } from './geo.js';
import { localDate } from './local-date.js';
import { placeKey } from './names.js';
import type { Network } from './network.js';
import type { ParsedCarrierInfoQuery, ParsedServiceDaysQuery, ParsedTransitQuery } from './requests.js';
import type { CarrierMetadataResult, ServiceDaysResult, TransitEnd, TransitInfoResult, WeekDays } from './responses.js';

const WEEK: (keyof WeekDays)[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DAY_MS = 86_400_000;

/** Base transit days by terminal-to-terminal miles: <= 250 is 1 day, ... more than 2000 is 6. */
const TRANSIT_BANDS: [maxMiles: number, days: number][] = [[250, 1], [500, 2], [1000, 3], [1500, 4], [2000, 5]];

export function baseTransitDays(miles: number): number {
  for (const [max, days] of TRANSIT_BANDS) if (miles <= max) return days;
  return 6;
}

export class Schedules {
  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
  ) {}

  /** The carrier's number; a carrier without schedules has none of these endpoints (not found). */
  private carrier(id: string): number {
    return this.net.requireCarrier(id, 'schedules');
  }

  /** The next service day after `date`, or else after today where the ZIP is (the clock is `now`). */
  serviceDays(carrierId: string, q: ParsedServiceDaysQuery, now: Date): ServiceDaysResult {
    const c = this.carrier(carrierId);
    const row = this.row(c, q.zip, q.city);
    const where = this.describe(q.zip, row);
    const mask = row < 0 ? 0 : this.net.t.spDays[row];
    const serviceDays = Object.fromEntries(WEEK.map((day, i) => [day, (mask & (1 << i)) !== 0])) as unknown as WeekDays;
    const next = mask === 0 ? null : nextServiceDay(q.date ?? this.today(q.zip, row, now), mask);
    return {
      success: true,
      zip: q.zip,
      city: where.city,
      state: where.state,
      served: row >= 0,
      terminalCode: row < 0 ? null : this.net.t.locCode[this.net.t.spTerminal[row]],
      serviceDays,
      nextPickupDate: next,
      nextDeliveryDate: next,
    };
  }

  transitInfo(carrierId: string, q: ParsedTransitQuery): TransitInfoResult {
    const c = this.carrier(carrierId);
    const origin = this.row(c, q.origin_zip, undefined);
    const dest = this.row(c, q.dest_zip, undefined);
    const base = { success: true as const, originZip: q.origin_zip, destZip: q.dest_zip };
    if (origin < 0 || dest < 0) {
      return { ...base, served: false, origin: origin < 0 ? null : this.end(origin), destination: dest < 0 ? null : this.end(dest),
        distanceMiles: null, baseTransitDays: null, addOnDays: null, transitDays: null };
    }
    const t = this.net.t;
    const a = t.spTerminal[origin];
    const b = t.spTerminal[dest];
    // The band of the distance the answer shows: 250.03 mi is shown as 250, and so is 1 day.
    const miles = roundMiles(distanceMiles(t.locLat[a], t.locLng[a], t.locLat[b], t.locLng[b]));
    const days = baseTransitDays(miles);
    const addOn = t.spAddOn[origin] + t.spAddOn[dest];
    return { ...base, served: true, origin: this.end(origin), destination: this.end(dest), distanceMiles: miles,
      baseTransitDays: days, addOnDays: addOn, transitDays: days + addOn };
  }

  carrierInfo(carrierId: string, q: ParsedCarrierInfoQuery): CarrierMetadataResult {
    const c = this.carrier(carrierId);
    const info = this.net.carriers[c];
    const row = this.row(c, q.zip, q.city);
    const where = this.describe(q.zip, row);
    const t = this.net.t;
    return {
      success: true,
      carrier: info.id,
      name: info.name,
      scac: info.scac,
      zip: q.zip,
      city: where.city,
      state: where.state,
      served: row >= 0,
      terminalCode: row < 0 ? null : t.locCode[t.spTerminal[row]],
      direct: row >= 0 && t.spDirect[row] === 1,
      addOnDays: row < 0 ? null : t.spAddOn[row],
    };
  }

  /**
   * Today's date where the served ZIP is: a shipper in Los Angeles at 6 pm asks about today, not
   * about the UTC date. The ZIP's point, or its terminal's when the gazetteer lacks the ZIP.
   */
  private today(zip: string, row: number, now: Date): string {
    const z = this.gazetteer.zipIndex(zip);
    const t = this.net.t;
    if (z >= 0) return localDate(now, this.gazetteer.table.zipLat[z], this.gazetteer.table.zipLng[z]);
    const terminal = t.spTerminal[row];
    return localDate(now, t.locLat[terminal], t.locLng[terminal]);
  }

  /**
   * The carrier's points-served row for a ZIP, narrowed by city when given; without a city, the
   * row named like the ZIP's gazetteer city, else the first. -1 when not served.
   */
  private row(c: number, zip: string, city: string | undefined): number {
    const t = this.net.t;
    const [from, to] = this.net.servicePointRange(Number(zip));
    const z = this.gazetteer.zipIndex(zip);
    const wanted = city !== undefined ? placeKey(city) : z >= 0 ? placeKey(this.gazetteer.zipCity(z)) : undefined;
    let first = -1;
    for (let p = from; p < to; p++) {
      if (t.spCarrier[p] !== c) continue;
      if (placeKey(t.spCity[p]) === wanted) return p;
      if (first < 0) first = p;
    }
    return city !== undefined ? -1 : first;
  }

  private describe(zip: string, row: number): { city: string; state: string } {
    if (row >= 0) return { city: this.net.t.spCity[row], state: this.net.t.spState[row] };
    const z = this.gazetteer.zipIndex(zip);
    return z >= 0 ? { city: this.gazetteer.zipCity(z), state: this.gazetteer.zipState(z) } : { city: '', state: '' };
  }

  private end(row: number): TransitEnd {
    const t = this.net.t;
    const l = t.spTerminal[row];
    return { terminalCode: t.locCode[l], name: t.locName[l], city: t.locCity[l], state: t.locState[l], addOnDays: t.spAddOn[row] };
  }
}

/** The first day strictly after `from` (YYYY-MM-DD) whose weekday is in `mask` (Monday = bit 0). */
export function nextServiceDay(from: string, mask: number): string {
  const start = Date.parse(`${from}T00:00:00Z`);
  for (let i = 1; i <= 7; i++) {
    const day = new Date(start + i * DAY_MS);
    const weekday = (day.getUTCDay() + 6) % 7;
    if (mask & (1 << weekday)) return day.toISOString().slice(0, 10);
  }
  throw new Error('empty service-day mask');
}
