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
].join('\n');

const CARRIERS = [
  { id: 'acme-freight', name: 'Acme Freight', scac: 'ACMF', kind: 'ltl', unified: true, canReach: true, lookup: 'zip', schedules: true, terminalRoute: 'station' },
  { id: 'harbor-line', name: 'Harbor Line', scac: 'HBLN', kind: 'ltl', unified: true, canReach: false, lookup: 'zip' },
];

const TERMINALS = [
  TERMINAL_HEADER,
  'acme-freight,NYC,Acme New York,1 Main St,,New York,NY,10001,US,555-0100,,,40.75,-74.0,',
  'acme-freight,LAX,Acme Los Angeles,2 Spring St,,Los Angeles,CA,90012,US,555-0101,,,34.06,-118.24,',
  'acme-freight,HNL,Acme Honolulu,3 King St,,Honolulu,HI,96813,US,555-0102,,,21.31,-157.86,',
  'harbor-line,H1,Harbor New York,4 Pier Rd,,New York,NY,10001,US,555-0103,,,40.75,-74.0,',
].join('\n');

const POINTS = [
  POINTS_HEADER,
  'acme-freight,10001,New York,NY,NYC,true,TR,0',
  'acme-freight,90012,Los Angeles,CA,LAX,true,TR,1',
  'acme-freight,96813,Honolulu,HI,HNL,false,MWF,2',
  'harbor-line,10001,New York,NY,H1,true,MTWRF,0',
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
      served: true, terminalCode: 'HNL', direct: false, addOnDays: 2,
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
