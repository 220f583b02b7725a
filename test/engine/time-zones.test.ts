// Each ZIP's time zone, which tells "today" and the cutoff where the ZIP is: from the zones' full
// boundaries for the ZIPs of the GeoNames file the package ships (data/zip-time-zones.ts), which
// must be what its generator makes now from that file and geo-tz.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index.js';
import { zipTimeZonesModule } from '../../data/generate-zip-time-zones.js';

describe("the ZIPs' time zones", () => {
  it('data/zip-time-zones.ts is current: npm run data:zones writes it as it is', () => {
    expect(readFileSync(new URL('../../data/zip-time-zones.ts', import.meta.url), 'utf8')).toBe(zipTimeZonesModule());
  }, 60_000);

  it("places ZIPs near a zone's border, or Canada's or Mexico's, in their own zone", () => {
    const engine = createEngine();
    const zoneOf = (zip: string) => engine.serviceDays('carrier-a', { zip, date: '2026-07-01' }).timeZone;
    // Each as its town keeps time (a compact map of the zones put them in their neighbour's).
    expect(zoneOf('04730')).toBe('America/New_York'); // Houlton, ME (not Moncton's Atlantic time)
    expect(zoneOf('83837')).toBe('America/Los_Angeles'); // Kellogg, ID (the panhandle keeps Pacific time)
    expect(zoneOf('85369')).toBe('America/Phoenix'); // Yuma, AZ (no daylight saving time)
    expect(zoneOf('58801')).toBe('America/Chicago'); // Williston, ND
    expect(zoneOf('99742')).toBe('America/Nome'); // Gambell, AK (not Asia/Anadyr, a day ahead)
  });

  it('pickup today in Houlton, ME at 23:30 on a Wednesday, its pickup day, is still today', () => {
    // 2026-07-02T03:30Z is 23:30 EDT on Wednesday 07-01; in Atlantic time it would be Thursday
    const answer = createEngine().serviceDays('carrier-a', { zip: '04730' }, { now: new Date('2026-07-02T03:30:00Z') });
    expect(answer.serviceDays.wednesday).toBe(true);
    expect(answer).toMatchObject({ timeZone: 'America/New_York', pickupToday: true });
  });
});
