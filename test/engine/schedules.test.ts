// Schedules of a user's own carriers (ids unlike the sample's): service days, the next service day
// after a date or after today where the ZIP is, transit times and carrier metadata. The clock is
// passed in; every expected date is worked out by hand from a calendar and the zones' UTC offsets.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, type Engine } from '../../engine/index.js';
import { createEngine } from '../../data/index.js';
import { gazetteerRow } from './geonames-rows.js';
import { POINTS_HEADER, TERMINAL_HEADER } from '../support/small-dataset.js';

const ZIPS = [
  gazetteerRow('10001', 'New York', 'NY', 40.75, -74.0),
  gazetteerRow('90012', 'Los Angeles', 'CA', 34.06, -118.24),
  gazetteerRow('96813', 'Honolulu', 'HI', 21.31, -157.86),
  gazetteerRow('96815', 'Honolulu', 'HI', 21.28, -157.82),
  gazetteerRow('96817', 'Honolulu', 'HI', 21.33, -157.86),
].join('\n');

const CARRIERS = [
  { id: 'acme-freight', name: 'Acme Freight', scac: 'ACMF', kind: 'ltl', unified: true, canReach: true, lookup: 'zip', schedules: true, terminalRoute: 'station' },
  { id: 'harbor-line', name: 'Harbor Line', scac: 'HBLN', kind: 'ltl', unified: true, canReach: false, lookup: 'zip' },
  {
    id: 'turkey-line', name: 'Turkey Line', scac: 'TKYL', kind: 'ltl', unified: false, canReach: false, lookup: 'zip', schedules: true,
    holidays: { calendar: 'us-ltl', dates: ['2026-11-27'] },
  },
];

const TERMINALS = [
  TERMINAL_HEADER,
  'acme-freight,NYC,Acme New York,1 Main St,,New York,NY,10001,US,555-0100,,,40.75,-74.0,',
  'acme-freight,LAX,Acme Los Angeles,2 Spring St,,Los Angeles,CA,90012,US,555-0101,,,34.06,-118.24,',
  'acme-freight,HNL,Acme Honolulu,3 King St,,Honolulu,HI,96813,US,555-0102,,,21.31,-157.86,',
  'harbor-line,H1,Harbor New York,4 Pier Rd,,New York,NY,10001,US,555-0103,,,40.75,-74.0,',
  'turkey-line,T1,Turkey New York,5 Pier Rd,,New York,NY,10001,US,555-0104,,,40.75,-74.0,',
  'turkey-line,T2,Turkey Los Angeles,6 Pier Rd,,Los Angeles,CA,90012,US,555-0105,,,34.06,-118.24,',
].join('\n');

const POINTS = [
  `${POINTS_HEADER},cutoffTime,highCost,highCostNote,interlineScac`,
  'acme-freight,10001,New York,NY,NYC,true,TR,0,16:30,,,',
  'acme-freight,90012,Los Angeles,CA,LAX,true,TR,1,,,,',
  'acme-freight,96813,Honolulu,HI,HNL,false,MWF,2,14:00,TRUE,island delivery,pcfc',
  // Two rows for one ZIP, the gazetteer's city second; one row named unlike the gazetteer's city.
  'acme-freight,96815,Waikiki,HI,HNL,false,MWF,2,,TRUE,resort district,',
  'acme-freight,96815,Honolulu,HI,HNL,false,MWF,2,,,,',
  'acme-freight,96817,Kalihi,HI,HNL,false,MWF,2,,TRUE,valley route,',
  'harbor-line,10001,New York,NY,H1,true,MTWRF,0,,,,',
  'turkey-line,10001,New York,NY,T1,true,MTWRF,0,,,,',
  'turkey-line,90012,Los Angeles,CA,T2,true,MWF,0,,,,',
].join('\n');

let root: string;
let engine: Engine;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'schedules-'));
  const zipFile = join(root, 'US.txt');
  writeFileSync(zipFile, ZIPS);
  for (const [file, text] of [['carriers.json', JSON.stringify(CARRIERS)], ['terminals.csv', TERMINALS], ['service-points.csv', POINTS]]) {
    writeFileSync(join(root, file), text);
  }
  engine = createEngine({ dataDir: root, zipFile });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const next = (zip: string, when: { date?: string; now?: string }) =>
  engine.serviceDays('acme-freight', { zip, date: when.date }, when.now ? { now: new Date(when.now) } : undefined).nextPickupDate;

describe('service days of a carrier that is not the sample\'s', () => {
  it('next pickup after a Friday on TR is the Tuesday', () => {
    // 2025-01-03 is a Friday
    const days = engine.serviceDays('acme-freight', { zip: '10001', date: '2025-01-03' });
    expect(days).toMatchObject({
      success: true, zip: '10001', city: 'New York', state: 'NY', served: true, terminalCode: 'NYC',
      nextPickupDate: '2025-01-07', nextDeliveryDate: '2025-01-07',
    });
    expect(days.serviceDays).toEqual({ monday: false, tuesday: true, wednesday: false, thursday: true, friday: false, saturday: false, sunday: false });
    // strictly after: from a Tuesday, the Thursday
    expect(next('10001', { date: '2025-01-07' })).toBe('2025-01-09');
  });

  it('without a date, "today" is the date in the ZIP\'s own time zone', () => {
    // Monday 2025-01-06, 18:00 in Los Angeles (PST, UTC-8) is Tuesday 02:00 UTC: the shipper asks
    // about Monday, so the next TR day is that Tuesday, not Thursday.
    expect(next('90012', { now: '2025-01-07T02:00:00Z' })).toBe('2025-01-07');
    // the same instant in New York (EST, UTC-5) is Monday 21:00: Tuesday as well
    expect(next('10001', { now: '2025-01-07T02:00:00Z' })).toBe('2025-01-07');
    // New York's midnight: 04:59 UTC is still Monday there, 05:00 UTC is Tuesday (next: Thursday)
    expect(next('10001', { now: '2025-01-07T04:59:00Z' })).toBe('2025-01-07');
    expect(next('10001', { now: '2025-01-07T05:00:00Z' })).toBe('2025-01-09');
    // Los Angeles keeps Monday until 08:00 UTC
    expect(next('90012', { now: '2025-01-07T07:59:00Z' })).toBe('2025-01-07');
    expect(next('90012', { now: '2025-01-07T08:00:00Z' })).toBe('2025-01-09');
  });

  it('daylight saving time and a zone without it', () => {
    // In July Los Angeles is on PDT (UTC-7): Monday 2025-07-07 23:30 local is 06:30 UTC Tuesday
    expect(next('90012', { now: '2025-07-08T06:30:00Z' })).toBe('2025-07-08');
    expect(next('90012', { now: '2025-07-08T07:00:00Z' })).toBe('2025-07-10');
    // Honolulu stays on UTC-10 all year, MWF: Sunday 2025-07-06 22:00 local = Monday 08:00 UTC -> Monday 07-07
    expect(next('96813', { now: '2025-07-07T08:00:00Z' })).toBe('2025-07-07');
    expect(next('96813', { now: '2025-07-07T10:00:00Z' })).toBe('2025-07-09');
  });

  it('a ZIP the carrier does not serve has no dates', () => {
    expect(engine.serviceDays('acme-freight', { zip: '55555' })).toMatchObject({ served: false, terminalCode: null, nextPickupDate: null });
  });
});

describe('transit times and metadata of a carrier that is not the sample\'s', () => {
  it('transit days from the terminal-to-terminal distance plus both add-on days', () => {
    // New York (40.75, -74.0) to Los Angeles (34.06, -118.24): 2,446 mi by haversine, more than 2,000: 6 base days
    const transit = engine.transitInfo('acme-freight', { origin_zip: '10001', dest_zip: '90012' });
    expect(transit).toMatchObject({ served: true, baseTransitDays: 6, addOnDays: 1, transitDays: 7 });
    expect(transit.distanceMiles).toBeGreaterThan(2400);
    expect(transit.distanceMiles).toBeLessThan(2500);
    expect(transit.origin).toEqual({ terminalCode: 'NYC', name: 'Acme New York', city: 'New York', state: 'NY', addOnDays: 0 });
    expect(transit.destination).toEqual({ terminalCode: 'LAX', name: 'Acme Los Angeles', city: 'Los Angeles', state: 'CA', addOnDays: 1 });
  });

  it('carrier metadata for a served ZIP', () => {
    expect(engine.carrierInfo('acme-freight', { zip: '96813' })).toEqual({
      success: true, carrier: 'acme-freight', name: 'Acme Freight', scac: 'ACMF', zip: '96813', city: 'Honolulu', state: 'HI',
      served: true, terminalCode: 'HNL', direct: false, addOnDays: 2, highCost: true, highCostNote: 'island delivery', interlineScac: 'PCFC',
    });
  });

  it('a carrier without `schedules: true` has none of them, whatever its points-served rows', () => {
    expect(() => engine.serviceDays('harbor-line', { zip: '10001' })).toThrow(NotFoundError);
    expect(() => engine.transitInfo('harbor-line', { origin_zip: '10001', dest_zip: '10001' })).toThrow(NotFoundError);
    expect(() => engine.carrierInfo('harbor-line', { zip: '10001' })).toThrow(NotFoundError);
  });

  it('the terminal page of each carrier with points-served rows', () => {
    expect(engine.terminalPoints('acme-freight', 'LAX').locations.map((l) => l.address.zipCode)).toEqual(['90012']);
    expect(engine.terminalPoints('harbor-line', 'H1').locations.map((l) => l.address.zipCode)).toEqual(['10001']);
  });
});

describe('holidays: the us-ltl calendar and a carrier\'s own dates', () => {
  const days = (zip: string, date: string) => engine.serviceDays('turkey-line', { zip, date });

  it('from the Wednesday before Thanksgiving 2026: not Thursday (Thanksgiving), not Friday (its own date), but Monday', () => {
    const answer = days('10001', '2026-11-25');
    expect(answer).toMatchObject({ nextPickupDate: '2026-11-30', nextDeliveryDate: '2026-11-30' });
    // the 30 days after 11-25 run to 12-25: Christmas 2026, a Friday, is the last of them
    expect(answer.holidays).toEqual([
      { date: '2026-11-26', name: 'Thanksgiving Day' },
      { date: '2026-11-27', name: 'carrier holiday' },
      { date: '2026-12-25', name: 'Christmas Day' },
    ]);
    expect(days('10001', '2026-11-26').holidays.map((h) => h.date)).toEqual(['2026-11-27', '2026-12-25']);
  });

  it('Christmas 2026 on a Friday: a MWF point picks up Monday 12-28 after Wednesday 12-23', () => {
    expect(days('90012', '2026-12-23').nextPickupDate).toBe('2026-12-28');
    expect(days('10001', '2026-12-24').nextPickupDate).toBe('2026-12-28');
  });

  it('New Year 2028 (a Saturday) is kept Friday 2027-12-31: Thursday 12-30 goes to Monday 2028-01-03', () => {
    expect(days('10001', '2027-12-30').nextPickupDate).toBe('2028-01-03');
    expect(days('10001', '2027-12-30').holidays[0]).toEqual({ date: '2027-12-31', name: "New Year's Day" });
  });

  it('a carrier without holidays lists none and picks up on Thanksgiving', () => {
    const answer = engine.serviceDays('acme-freight', { zip: '10001', date: '2026-11-25' });
    expect(answer.nextPickupDate).toBe('2026-11-26');
    expect(answer.holidays).toEqual([]);
  });
});

describe('estimated delivery dates: transitDays working days after the pickup, then a served day at the destination', () => {
  // New York to Los Angeles is more than 2,000 mi: 6 transit days, no add-on days.
  const ship = (origin_zip: string, dest_zip: string, ship_date?: string, now?: string) =>
    engine.transitInfo('turkey-line', { origin_zip, dest_zip, ship_date }, now ? { now: new Date(now) } : undefined);

  it('Wednesday before Thanksgiving 2026: Thursday and Friday are holidays, delivery Monday 12-07', () => {
    expect(ship('10001', '90012', '2026-11-25')).toMatchObject({
      transitDays: 6, shipDate: '2026-11-25', pickupDate: '2026-11-25', estimatedDeliveryDate: '2026-12-07',
      holidaysSkipped: [{ date: '2026-11-26', name: 'Thanksgiving Day' }, { date: '2026-11-27', name: 'carrier holiday' }],
    });
  });

  it('ready on Thanksgiving: the pickup moves to Monday 11-30, delivery Tuesday 12-08 moves to the MWF point\'s Wednesday', () => {
    expect(ship('10001', '90012', '2026-11-26')).toMatchObject({
      shipDate: '2026-11-26', pickupDate: '2026-11-30', estimatedDeliveryDate: '2026-12-09',
    });
  });

  it('Christmas 2026 on a Friday, and delivery due on New Year 2027 (a Friday) moves to Monday', () => {
    // 12-23, 12-24, (25 Christmas), 28, 29, 30, 31: Thursday 12-31; the MWF point's next day is Friday 01-01, a holiday
    expect(ship('10001', '90012', '2026-12-22')).toMatchObject({
      pickupDate: '2026-12-22', estimatedDeliveryDate: '2027-01-04',
      holidaysSkipped: [{ date: '2026-12-25', name: 'Christmas Day' }, { date: '2027-01-01', name: "New Year's Day" }],
    });
  });

  it('New Year 2028 kept Friday 2027-12-31', () => {
    // 12-30, (31 kept New Year), 01-03, 04, 05, 06, 07
    expect(ship('90012', '10001', '2027-12-29')).toMatchObject({
      pickupDate: '2027-12-29', estimatedDeliveryDate: '2028-01-07', holidaysSkipped: [{ date: '2027-12-31', name: "New Year's Day" }],
    });
  });

  it('without ship_date: today at the origin, by the clock', () => {
    // 03:00 UTC on 11-26 is still Wednesday 11-25 in Los Angeles (19:00 PST)
    expect(ship('90012', '10001', undefined, '2026-11-26T03:00:00Z')).toMatchObject({
      shipDate: '2026-11-25', pickupDate: '2026-11-25', estimatedDeliveryDate: '2026-12-07',
    });
    // 09:00 UTC is Thanksgiving there: the pickup waits for Monday
    expect(ship('90012', '10001', undefined, '2026-11-26T09:00:00Z')).toMatchObject({
      shipDate: '2026-11-26', pickupDate: '2026-11-30', estimatedDeliveryDate: '2026-12-08',
    });
  });

  it('at the first instant a clock may name it is still Wednesday 1969-12-31 in Los Angeles: a day like any other', () => {
    // 16:00 PST; the MWF point picks up that day; then 01-01 (New Year), 02, 05, 06, 07, 08, 09: Friday
    expect(ship('90012', '10001', undefined, '1970-01-01T00:00:00Z')).toMatchObject({
      shipDate: '1969-12-31', pickupDate: '1969-12-31', estimatedDeliveryDate: '1970-01-09',
      holidaysSkipped: [{ date: '1970-01-01', name: "New Year's Day" }],
    });
  });

  it('a bad ship_date is refused naming it; an unserved ZIP has no dates', () => {
    expect(() => ship('10001', '90012', '2026-11-31')).toThrow('ship_date must be a real calendar date (YYYY-MM-DD)');
    expect(() => ship('10001', '90012', '11/25/2026')).toThrow('ship_date must be YYYY-MM-DD');
    expect(ship('10001', '96813', '2026-11-25')).toMatchObject({ served: false, pickupDate: null, estimatedDeliveryDate: null, holidaysSkipped: [] });
  });
});

describe('cutoff times and time zones: can a pickup still be booked today?', () => {
  const today = (zip: string, now: string, date?: string) => engine.serviceDays('acme-freight', { zip, date }, { now: new Date(now) });

  it('New York, cutoff 16:30 local: before it yes, at it no; the zone is the ZIP\'s', () => {
    // Tuesday 2025-01-07 (a TR day): 16:29 EST is 21:29 UTC
    expect(today('10001', '2025-01-07T21:29:00Z')).toMatchObject({ cutoffTime: '16:30', timeZone: 'America/New_York', pickupToday: true });
    expect(today('10001', '2025-01-07T21:30:00Z')).toMatchObject({ cutoffTime: '16:30', pickupToday: false });
    // in July (EDT, UTC-4) 16:29 local is 20:29 UTC; Tuesday 2025-07-08
    expect(today('10001', '2025-07-08T20:29:00Z').pickupToday).toBe(true);
    expect(today('10001', '2025-07-08T20:31:00Z').pickupToday).toBe(false);
  });

  it('a shipment ready today makes the pickup today only before the cutoff, as pickupToday says', () => {
    const transit = (now: string, ship_date?: string) =>
      engine.transitInfo('acme-freight', { origin_zip: '10001', dest_zip: '90012', ship_date }, { now: new Date(now) });
    // Tuesday 2025-01-07 in New York (TR, cutoff 16:30): 6 transit days and 1 add-on day to the TR point
    // 16:29 EST: picked up Tuesday; 01-08, 09, 10, 13, 14, 15, 16: Thursday 01-16
    expect(transit('2025-01-07T21:29:00Z')).toMatchObject({ shipDate: '2025-01-07', pickupDate: '2025-01-07', estimatedDeliveryDate: '2025-01-16' });
    // 16:30: Thursday 01-09; 01-10, 13, 14, 15, 16, 17, 20: Monday 01-20, the TR point's next is Tuesday 01-21
    expect(transit('2025-01-07T21:30:00Z')).toMatchObject({ shipDate: '2025-01-07', pickupDate: '2025-01-09', estimatedDeliveryDate: '2025-01-21' });
    // Today named as ship_date is today; another day has no cutoff to miss.
    expect(transit('2025-01-07T21:30:00Z', '2025-01-07').pickupDate).toBe('2025-01-09');
    expect(transit('2025-01-06T21:30:00Z', '2025-01-07').pickupDate).toBe('2025-01-07');
  });

  it('not a service day there: no pickup today, whatever the time', () => {
    // Wednesday 2025-01-08 08:00 in New York: the point is served TR
    expect(today('10001', '2025-01-08T13:00:00Z').pickupToday).toBe(false);
  });

  it('Honolulu (no daylight saving, UTC-10), cutoff 14:00', () => {
    // Monday 2025-01-06 13:59 HST is 23:59 UTC; MWF
    expect(today('96813', '2025-01-06T23:59:00Z')).toMatchObject({ cutoffTime: '14:00', timeZone: 'Pacific/Honolulu', pickupToday: true });
    expect(today('96813', '2025-01-07T00:00:00Z').pickupToday).toBe(false);
    expect(today('96813', '2025-01-07T00:00:00Z')).toMatchObject({ highCost: true, highCostNote: 'island delivery', interlineScac: 'PCFC' });
  });

  it('a date that is not today there: pickupToday is null; no cutoff stated: the day decides', () => {
    expect(today('10001', '2025-01-07T15:00:00Z', '2025-01-09').pickupToday).toBeNull();
    expect(today('10001', '2025-01-07T15:00:00Z', '2025-01-07').pickupToday).toBe(true);
    // Los Angeles states no cutoff: cutoffTime null, a TR day is a pickup day until midnight
    expect(today('90012', '2025-01-08T07:59:00Z')).toMatchObject({ cutoffTime: null, timeZone: 'America/Los_Angeles', pickupToday: true });
  });

  it('can-reach answers the point attributes of a ZIP the carrier\'s rows name', () => {
    expect(engine.canReach({ carrier: 'acme-freight', zip: '96813' })).toMatchObject({ canReach: true, highCost: true, highCostNote: 'island delivery', interlineScac: 'PCFC' });
    expect(engine.canReach({ carrier: 'acme-freight', zip: '10001' })).toMatchObject({ highCost: false, highCostNote: null, interlineScac: null });
    // a city is no points-served row
    expect(engine.canReach({ carrier: 'acme-freight', city: 'Honolulu', state: 'HI' })).toMatchObject({ highCost: null, interlineScac: null });
  });

  it('a ZIP with rows for several cities: the row named like the ZIP\'s city, unless a city is asked for', () => {
    // 96815's gazetteer city is Honolulu, its second row
    expect(engine.canReach({ carrier: 'acme-freight', zip: '96815' })).toMatchObject({ highCost: false, highCostNote: null });
    expect(engine.serviceDays('acme-freight', { zip: '96815' })).toMatchObject({ city: 'Honolulu', highCost: false });
    expect(engine.serviceDays('acme-freight', { zip: '96815', city: 'Waikiki' })).toMatchObject({ city: 'Waikiki', highCost: true, highCostNote: 'resort district' });
    // 96817's one row names another city than the gazetteer: it is still the ZIP's row
    expect(engine.canReach({ carrier: 'acme-freight', zip: '96817' })).toMatchObject({ highCost: true, highCostNote: 'valley route' });
    expect(engine.serviceDays('acme-freight', { zip: '96817' })).toMatchObject({ served: true, city: 'Kalihi', highCost: true });
  });

  it('holidays: no pickup on Thanksgiving', () => {
    const answer = engine.serviceDays('turkey-line', { zip: '10001' }, { now: new Date('2026-11-26T14:00:00Z') });
    expect(answer).toMatchObject({ pickupToday: false, nextPickupDate: '2026-11-30', timeZone: 'America/New_York' });
  });
});
