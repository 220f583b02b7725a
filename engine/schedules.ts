// The schedule endpoints of carriers with `schedules: true`: service days at a point, transit time
// between two points, and the carrier metadata for a point. All read the points-served row of the ZIP.

import type { Gazetteer } from './gazetteer.js';
import { distanceMiles, roundMiles } from './geo.js';
import { dateOfDay, dayNumber, Holidays, weekdayOf } from './holidays.js';
import { localClock } from './local-date.js';
import { placeKey } from './names.js';
import type { Network } from './network.js';
import type { ParsedCarrierInfoQuery, ParsedServiceDaysQuery, ParsedTransitQuery } from './requests.js';
import type { CarrierMetadataResult, ServiceDaysResult, TransitEnd, TransitInfoResult, WeekDays } from './responses.js';
import type { TimeZoneTables } from './snapshot-format.js';

const WEEK: (keyof WeekDays)[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** How far ahead service-days lists the holidays that its dates skip. */
export const HOLIDAYS_AHEAD_DAYS = 30;
/** A next service day is looked for this far ahead: beyond, a carrier's own holiday list has closed the point. */
const SEARCH_DAYS = 732;

/** Base transit days by terminal-to-terminal miles: <= 250 is 1 day, ... more than 2000 is 6. */
const TRANSIT_BANDS: [maxMiles: number, days: number][] = [[250, 1], [500, 2], [1000, 3], [1500, 4], [2000, 5]];

export function baseTransitDays(miles: number): number {
  for (const [max, days] of TRANSIT_BANDS) if (miles <= max) return days;
  return 6;
}

export class Schedules {
  private readonly holidays = new Map<number, Holidays>();

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
    private readonly zones: TimeZoneTables,
  ) {}

  /** The carrier's number; a carrier without schedules has none of these endpoints (not found). */
  private carrier(id: string): number {
    return this.net.requireCarrier(id, 'schedules');
  }

  /** The carrier's holidays, made on first use. */
  private holidaysOf(c: number): Holidays {
    let holidays = this.holidays.get(c);
    if (holidays === undefined) this.holidays.set(c, (holidays = new Holidays(this.net.carriers[c].holidays)));
    return holidays;
  }

  /** The next service day after `date`, or else after today where the ZIP is (the clock is `now`); holidays are skipped. */
  serviceDays(carrierId: string, q: ParsedServiceDaysQuery, now: Date): ServiceDaysResult {
    const c = this.carrier(carrierId);
    const row = this.row(c, q.zip, q.city);
    const where = this.describe(q.zip, row);
    const t = this.net.t;
    const mask = row < 0 ? 0 : t.spDays[row];
    const serviceDays = Object.fromEntries(WEEK.map((day, i) => [day, (mask & (1 << i)) !== 0])) as unknown as WeekDays;
    const holidays = this.holidaysOf(c);
    const timeZone = this.timeZone(q.zip, row);
    const clock = timeZone === null ? null : localClock(now, timeZone);
    // An unserved ZIP has no dates (and one the gazetteer lacks, no place to tell today by).
    const from = row < 0 ? 0 : dayNumber(q.date ?? clock!.date);
    const nextDay = mask === 0 ? NO_DAY : nextServiceDay(from + 1, mask, holidays);
    const next = nextDay === NO_DAY ? null : dateOfDay(nextDay);
    const cutoff = this.cutoff(row);
    const isToday = row >= 0 && clock !== null && (q.date === undefined || q.date === clock.date);
    return {
      success: true,
      zip: q.zip,
      city: where.city,
      state: where.state,
      served: row >= 0,
      terminalCode: row < 0 ? null : t.locCode.at(t.spTerminal[row]),
      serviceDays,
      nextPickupDate: next,
      nextDeliveryDate: next,
      cutoffTime: cutoff < 0 ? null : `${String(Math.floor(cutoff / 60)).padStart(2, '0')}:${String(cutoff % 60).padStart(2, '0')}`,
      timeZone,
      pickupToday: !isToday ? null : nextServiceDay(from, mask, holidays) === from && beforeCutoff(cutoff, clock!.minutes),
      ...this.net.pointAttributes(row),
      holidays: row < 0 ? [] : holidays.between(from + 1, from + 1 + HOLIDAYS_AHEAD_DAYS),
    };
  }

  /**
   * Transit time, and the dates of a shipment ready on `ship_date` (default: today at the origin,
   * by the clock `now`): the pickup on the first pickup day from then; transitDays working days
   * (no Saturday, Sunday or holiday) after it; then the first day the destination is served that
   * is no holiday.
   */
  transitInfo(carrierId: string, q: ParsedTransitQuery, now: Date): TransitInfoResult {
    const c = this.carrier(carrierId);
    const origin = this.row(c, q.origin_zip, undefined);
    const dest = this.row(c, q.dest_zip, undefined);
    const base = { success: true as const, originZip: q.origin_zip, destZip: q.dest_zip };
    if (origin < 0 || dest < 0) {
      return { ...base, served: false, origin: origin < 0 ? null : this.end(origin), destination: dest < 0 ? null : this.end(dest),
        distanceMiles: null, baseTransitDays: null, addOnDays: null, transitDays: null,
        shipDate: null, pickupDate: null, estimatedDeliveryDate: null, holidaysSkipped: [] };
    }
    const t = this.net.t;
    const a = t.spTerminal[origin];
    const b = t.spTerminal[dest];
    // The band of the distance the answer shows: 250.03 mi is shown as 250, and so is 1 day.
    const miles = roundMiles(distanceMiles(t.locLat[a], t.locLng[a], t.locLat[b], t.locLng[b]));
    const days = baseTransitDays(miles);
    const addOn = t.spAddOn[origin] + t.spAddOn[dest];
    const clock = localClock(now, this.timeZone(q.origin_zip, origin)!);
    const shipDate = q.ship_date ?? clock.date;
    const holidays = this.holidaysOf(c);
    const ship = dayNumber(shipDate);
    // Ready today at the origin once its cutoff has passed, freight waits for the next pickup day,
    // as /service-days's pickupToday says.
    const tooLateToday = shipDate === clock.date && !beforeCutoff(this.cutoff(origin), clock.minutes);
    const pickup = nextServiceDay(tooLateToday ? ship + 1 : ship, t.spDays[origin], holidays);
    const delivery = pickup === NO_DAY ? NO_DAY : deliveryDay(pickup, days + addOn, t.spDays[dest], holidays);
    return { ...base, served: true, origin: this.end(origin), destination: this.end(dest), distanceMiles: miles,
      baseTransitDays: days, addOnDays: addOn, transitDays: days + addOn,
      shipDate,
      pickupDate: pickup === NO_DAY ? null : dateOfDay(pickup),
      estimatedDeliveryDate: delivery === NO_DAY ? null : dateOfDay(delivery),
      holidaysSkipped: holidays.between(ship, delivery === NO_DAY ? ship : delivery) };
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
      terminalCode: row < 0 ? null : t.locCode.at(t.spTerminal[row]),
      direct: row >= 0 && t.spDirect[row] === 1,
      addOnDays: row < 0 ? null : t.spAddOn[row],
      ...this.net.pointAttributes(row),
    };
  }

  /**
   * The time zone of the ZIP's point, or of its terminal's when the gazetteer lacks the ZIP (null
   * for neither): a shipper in Los Angeles at 6 pm asks about today there, not about the UTC date.
   */
  private timeZone(zip: string, row: number): string | null {
    const z = this.gazetteer.zipIndex(zip);
    const t = this.net.t;
    if (z >= 0) return this.zones.names[this.zones.zip[z]];
    if (row < 0) return null;
    return this.zones.names[this.zones.location[t.spTerminal[row]]];
  }

  /** A served point's cutoff, in minutes after midnight there; -1 for none (or no point). */
  private cutoff(row: number): number {
    // An empty column: no point of the dataset states a cutoff.
    return row < 0 ? -1 : (this.net.t.spCutoff[row] ?? -1);
  }

  /**
   * The carrier's points-served row for a ZIP, narrowed by city when given; without a city, the
   * row named like the ZIP's gazetteer city, else the first. -1 when not served.
   */
  private row(c: number, zip: string, city: string | undefined): number {
    const z = this.gazetteer.zipIndex(zip);
    const wanted = city !== undefined ? placeKey(city) : z >= 0 ? this.gazetteer.zipCityKey(z) : undefined;
    return this.net.servicePointRow(c, Number(zip), wanted, city !== undefined);
  }

  private describe(zip: string, row: number): { city: string; state: string } {
    if (row >= 0) return { city: this.net.t.spCity.at(row), state: this.net.t.spState.at(row) };
    const z = this.gazetteer.zipIndex(zip);
    return z >= 0 ? { city: this.gazetteer.zipCity(z), state: this.gazetteer.zipState(z) } : { city: '', state: '' };
  }

  private end(row: number): TransitEnd {
    const t = this.net.t;
    const l = t.spTerminal[row];
    return { terminalCode: t.locCode.at(l), name: t.locName.at(l), city: t.locCity.at(l), state: t.locState.at(l), addOnDays: t.spAddOn[row] };
  }
}

/** Whether a pickup can still be booked at `minutes` after midnight: before the cutoff minute (at it, too late); always without one. */
function beforeCutoff(cutoff: number, minutes: number): boolean {
  return cutoff < 0 || minutes < cutoff;
}

/**
 * No day: what nextServiceDay and deliveryDay return when there is none. Not -1, which is a day
 * (1969-12-31, "today" in the US at the first instant a clock may name).
 */
const NO_DAY = Number.MIN_SAFE_INTEGER;

/**
 * The first day from `from` on (a day number) whose weekday is in `mask` (Monday = bit 0) and
 * that is not a holiday; NO_DAY when none is within two years (a carrier's own list closed them all).
 */
export function nextServiceDay(from: number, mask: number, holidays: Holidays): number {
  if ((mask & 0x7f) === 0) return NO_DAY;
  for (let day = from; day < from + SEARCH_DAYS; day++) {
    if (mask & (1 << weekdayOf(day)) && !holidays.has(day)) return day;
  }
  return NO_DAY;
}

/**
 * The delivery day of freight picked up on day `pickup`: `transitDays` days after it that are
 * neither Saturday, Sunday nor a holiday, then the first day from there in the destination's
 * service days (`mask`) that is no holiday; NO_DAY when there is none.
 */
export function deliveryDay(pickup: number, transitDays: number, mask: number, holidays: Holidays): number {
  let day = pickup;
  for (let left = transitDays; left > 0; ) {
    day++;
    if (weekdayOf(day) < 5 && !holidays.has(day)) left--;
  }
  return nextServiceDay(day, mask, holidays);
}
