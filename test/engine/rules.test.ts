// One test (or a small seeded property) per documented rule of docs/http-api.md, each with an expected
// value computed here from the raw files (GeoNames US.txt, terminals.csv, service-points.csv).

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError, NotFoundError, type Engine, type LocationPage } from '../../engine/index.js';
import { haversineMiles, meanLongitude, releaseStableSampleDir, ZIP_FILE, sampleOracle, type Loc, type Oracle, type ServicePoint } from './oracle.js';
import { sampleEngine } from './sample-engine.js';
import { isReferenceHoliday, referenceIsHoliday } from '../support/holiday-reference.js';

const SEED = 7_3_2025;
const TOLERANCE = 0.05 + 1e-9;

let engine: Engine;
let oracle: Oracle;
/** GeoNames rows as split columns, civilian and military alike. */
let geonames: string[][];

beforeAll(() => {
  engine = sampleEngine();
  oracle = sampleOracle();
  releaseStableSampleDir();
  geonames = readFileSync(ZIP_FILE, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
});

/** Runs `fn` and returns the InvalidInputError it must throw. */
function invalid(fn: () => unknown): InvalidInputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).status).toBe(400);
    return error as InvalidInputError;
  }
  throw new Error('expected an InvalidInputError, but the call succeeded');
}

function mean(rows: string[][]): { lat: number; lng: number } {
  return { lat: rows.reduce((s, r) => s + Number(r[9]), 0) / rows.length, lng: meanLongitude(rows.map((r) => Number(r[10]))) };
}

/** Every page of a paged lookup, concatenated; checks the envelope of each page on the way. */
function allPages(fetch: (page: number) => LocationPage) {
  const first = fetch(1);
  const out = [...first.locations];
  expect(first.totalPages).toBe(Math.ceil(first.total / 25));
  for (let page = 2; page <= first.totalPages; page++) {
    const next = fetch(page);
    expect(next.currentPage).toBe(page);
    expect(next.total).toBe(first.total);
    expect(next.locations.length).toBe(page < first.totalPages ? 25 : first.total - 25 * (first.totalPages - 1));
    out.push(...next.locations);
  }
  expect(out.length).toBe(first.total);
  return out;
}

const codes = (locs: { terminalCode: string }[]) => locs.map((l) => l.terminalCode).sort();
const carrierLocs = (carrier: string) => oracle.locsByCarrier.get(carrier) ?? [];
const carrierPoints = (carrier: string) => oracle.servicePoints.filter((p) => p.carrier === carrier);

describe('resolving a place', () => {
  it('city + state is case-, space- and punctuation-insensitive, and "st" reads as "saint"', () => {
    const rows = geonames.filter((r) => r[2] === 'Saint Louis' && r[4] === 'MO');
    expect(rows.length).toBeGreaterThan(10);
    const { lat, lng } = mean(rows);
    for (const city of ['st louis', 'St. Louis', 'SAINT LOUIS', ' saint-louis ', 'Saint   Louis', 'st.louis']) {
      const result = engine.search({ city, state: 'MO' });
      expect(result.resolved, city).not.toBeNull();
      expect(result.resolved!.city).toBe('Saint Louis');
      expect(result.resolved!.state).toBe('MO');
      expect(result.resolved!.lat).toBeCloseTo(lat, 9);
      expect(result.resolved!.lng).toBeCloseTo(lng, 9);
    }
    expect(engine.search({ city: 'st louis', state: 'mo' }).resolved?.state).toBe('MO');
  });

  it('every documented abbreviation is spelled out: st, ste, ft, mt, pt', () => {
    const cases: [string, string, string][] = [
      ['St. Louis', 'MO', 'Saint Louis'],
      ['Ste. Genevieve', 'MO', 'Sainte Genevieve'],
      ['Ft Worth', 'TX', 'Fort Worth'],
      ['Mt. Vernon', 'NY', 'Mount Vernon'],
      ['Pt Pleasant', 'WV', 'Point Pleasant'],
    ];
    for (const [asked, state, geonamesName] of cases) {
      const rows = geonames.filter((r) => r[2] === geonamesName && r[4] === state);
      expect(rows.length, geonamesName).toBeGreaterThan(0);
      const resolved = engine.search({ city: asked, state }).resolved;
      expect(resolved, asked).toMatchObject({ city: geonamesName, state });
      expect(resolved!.lat).toBeCloseTo(mean(rows).lat, 9);
      // The oracle reads the names the same way.
      expect(oracle.resolve({ city: asked, state })?.city, asked).toBe(geonamesName);
    }
  });

  it("punctuation inside GeoNames names: coeur d'alene", () => {
    const rows = geonames.filter((r) => r[2] === "Coeur d'Alene" && r[4] === 'ID');
    const result = engine.whichCarriers({ city: 'COEUR DALENE', state: 'ID' });
    expect(result.resolved?.city).toBe("Coeur d'Alene");
    expect(result.resolved?.lat).toBeCloseTo(mean(rows).lat, 9);
  });

  it('a city alone is the place of that name with the most ZIPs', () => {
    for (const name of ['Portland', 'Springfield', 'Columbus', 'Kansas City']) {
      const byState = new Map<string, string[][]>();
      for (const r of geonames) if (r[2] === name && r[4]) byState.set(r[4], [...(byState.get(r[4]) ?? []), r]);
      const ranked = [...byState].sort((a, b) => b[1].length - a[1].length);
      expect(ranked[0][1].length, `${name} must have a clear winner for this test`).toBeGreaterThan(ranked[1][1].length);
      const result = engine.search({ city: name.toLowerCase() });
      expect(result.resolved?.state).toBe(ranked[0][0]);
      expect(result.resolved?.city).toBe(name);
      expect(result.resolved?.lat).toBeCloseTo(mean(ranked[0][1]).lat, 9);
      expect(result.resolved?.lng).toBeCloseTo(mean(ranked[0][1]).lng, 9);
    }
  });

  it('a state alone is the mean of its ZIP points, with city ""', () => {
    for (const state of ['TX', 'hi', 'AK', 'DC']) {
      const rows = geonames.filter((r) => r[4] === state.toUpperCase());
      const result = engine.search({ state });
      expect(result.resolved).not.toBeNull();
      expect(result.resolved!.city).toBe('');
      expect(result.resolved!.state).toBe(state.toUpperCase());
      expect(result.resolved!.lat).toBeCloseTo(mean(rows).lat, 9);
      expect(result.resolved!.lng).toBeCloseTo(mean(rows).lng, 9);
      // a state-only query has no nearby step
      expect(result.results.every((r) => r.match === 'exact')).toBe(true);
    }
  });

  it('an unknown ZIP resolves to null with matchType none and no results (200, not an error)', () => {
    expect(geonames.some((r) => r[1] === '00000')).toBe(false);
    const result = engine.search({ zip: '00000', radius: 100 });
    expect(result.resolved).toBeNull();
    expect(result.matchType).toBe('none');
    expect(result.total).toBe(0);
    expect(result.results).toEqual([]);
    expect(Object.values(result.byCarrier).every((list) => list.length === 0)).toBe(true);
    expect(Object.keys(result.byCarrier).sort()).toEqual(oracle.unifiedIds);
    const which = engine.whichCarriers({ zip: '00000' });
    expect(which.resolved).toBeNull();
    expect(which.served).toBe(false);
    expect(which.notServedBy.sort()).toEqual(oracle.unifiedIds);
  });

  it('an unknown ZIP with a city + state that resolve: the city wins', () => {
    const result = engine.search({ zip: '00000', city: 'Saint Louis', state: 'MO' });
    expect(result.resolved?.city).toBe('Saint Louis');
    expect(result.query.zip).toBe('00000');
  });

  it('zip + state that disagree is a 400 that names the state', () => {
    const row = geonames.find((r) => r[1] === '10001')!;
    expect(row[4]).toBe('NY');
    for (const call of [
      () => engine.search({ zip: '10001', state: 'NJ' }),
      () => engine.whichCarriers({ zip: '10001', state: 'NJ' }),
      () => engine.canReach({ carrier: 'carrier-e', zip: '10001', state: 'nj' }),
    ]) {
      expect(invalid(call).message).toMatch(/NJ/);
    }
    expect(engine.search({ zip: '10001', state: 'ny' }).resolved?.state).toBe('NY');
  });

  it('military APO/FPO ZIPs (no state code in GeoNames) are not found', () => {
    const military = geonames.filter((r) => r[4] === '').map((r) => r[1]);
    expect(military).toContain('09001');
    for (const zip of ['09001', ...military.slice(0, 20)]) {
      expect(engine.geocode({ zip })).toEqual({ success: true, zip, found: false, location: null });
      expect(engine.search({ zip }).resolved).toBeNull();
    }
  });

  it('an unknown state code is a 400 naming state', () => {
    expect(invalid(() => engine.search({ state: 'ZZ' })).message).toMatch(/state/);
    expect(invalid(() => engine.search({ state: 'Texas' })).message).toMatch(/state/);
  });

  it('none of zip, city, state is a 400', () => {
    for (const call of [
      () => engine.search({}),
      () => engine.search({ radius: 10, carriers: 'carrier-a' }),
      () => engine.whichCarriers({}),
      () => engine.canReach({ carrier: 'carrier-e' }),
    ]) {
      expect(invalid(call).message).toMatch(/zip|city|state/);
    }
  });
});

describe('geocode', () => {
  it('answers the GeoNames place and point of a known ZIP', () => {
    const row = geonames.find((r) => r[1] === '63101')!;
    expect(engine.geocode({ zip: '63101' })).toEqual({
      success: true,
      zip: '63101',
      found: true,
      location: { city: row[2], state: row[4], lat: Number(row[9]), lng: Number(row[10]) },
    });
  });

  it('an unknown ZIP is found: false (never an error)', () => {
    expect(engine.geocode({ zip: '99999' })).toEqual({ success: true, zip: '99999', found: false, location: null });
  });

  it('a malformed ZIP is a 400 naming zip', () => {
    for (const zip of ['1234', '123456', 'abcde', '', ' 10001', '1000a']) expect(invalid(() => engine.geocode({ zip })).message).toMatch(/zip/);
  });
});

describe('radius', () => {
  // Text must be a plain decimal: hex, exponents, signs and spaces are refused, not read by Number().
  const bad: unknown[] = [0, 101, -5, 0.5, 100.01, 'abc', '', '  ', NaN, Infinity, '1e3', null, true, '0x10', '1e1', ' 25', '25 ', '+25', '25.', '.5'];
  it.each(bad.map((r) => [String(r), r]))('radius %s is a 400 naming radius', (_label, radius) => {
    const r = radius as number;
    expect(invalid(() => engine.search({ zip: '10001', radius: r })).message).toMatch(/radius/);
    expect(invalid(() => engine.whichCarriers({ zip: '10001', radius: r })).message).toMatch(/radius/);
    expect(invalid(() => engine.canReach({ carrier: 'carrier-e', zip: '10001', radius: r })).message).toMatch(/radius/);
    expect(invalid(() => engine.dropPoints({ zip: '10001', radius: r })).message).toMatch(/radius/);
  });

  it('1, 100 and numeric strings are accepted; the default is 25', () => {
    expect(engine.search({ zip: '10001' }).query.radiusMiles).toBe(25);
    expect(engine.canReach({ carrier: 'carrier-e', zip: '10001' }).query.radius).toBe(25);
    expect(engine.search({ zip: '10001', radius: 1 }).query.radiusMiles).toBe(1);
    expect(engine.whichCarriers({ zip: '10001', radius: '100' as unknown as number }).query.radiusMiles).toBe(100);
    expect(engine.canReach({ carrier: 'carrier-e', zip: '10001', radius: 37.5 }).query.radius).toBe(37.5);
    expect(engine.search({ zip: '10001', radius: '12.5' }).query.radiusMiles).toBe(12.5);
  });
});

describe('unified scope and echo', () => {
  it('carriers= narrows to the unified ids it names; unknown ids are ignored; none known means all', () => {
    const narrowed = engine.search({ zip: '10001', carriers: 'carrier-b,carrier-zz, carrier-e' });
    expect(narrowed.carriers.sort()).toEqual(['carrier-b', 'carrier-e']);
    expect(Object.keys(narrowed.byCarrier).sort()).toEqual(['carrier-b', 'carrier-e']);
    expect(narrowed.results.every((r) => r.carrier === 'carrier-b' || r.carrier === 'carrier-e')).toBe(true);
    for (const carriers of ['carrier-zz', 'carrier-c,carrier-j', ['carrier-zz', ',']]) {
      expect(engine.search({ zip: '10001', carriers }).carriers.sort(), String(carriers)).toEqual(oracle.unifiedIds);
    }
    // Ids in any case (http-api.md): the same two carriers, not "none known".
    for (const carriers of ['CARRIER-B,Carrier-E', ['carrier-B', ' CARRIER-e ']]) {
      expect(engine.search({ zip: '10001', carriers }).results, JSON.stringify(carriers)).toEqual(narrowed.results);
    }
  });

  it('carriers naming no id (blank, commas alone, an empty list) are a 400, as any empty parameter is, not "all"', () => {
    const message = 'carriers must not be empty: name one or more carrier ids, comma-separated';
    for (const carriers of ['', ' ', '\t', ',', ',,', ' , ', [''], [], [','], ['carrier-a', ''], ['carrier-a', ' ']]) {
      expect(invalid(() => engine.search({ zip: '10001', carriers })).message, JSON.stringify(carriers)).toBe(message);
    }
  });

  it('query echoes absent parameters as empty strings', () => {
    expect(engine.search({ city: 'Portland', state: 'OR' }).query).toEqual({ zip: '', city: 'Portland', state: 'OR', radiusMiles: 25 });
    expect(engine.whichCarriers({ zip: '10001' }).query).toEqual({ zip: '10001', city: '', state: '', radiusMiles: 25 });
    expect(engine.canReach({ carrier: 'carrier-f', state: 'TX' }).query).toEqual({ zip: '', city: '', state: 'TX', radius: 25 });
  });
});

describe('can-reach carrier validation', () => {
  it('a missing carrier is a 400 naming carrier', () => {
    expect(invalid(() => engine.canReach({ zip: '10001' } as never)).message).toMatch(/carrier/);
    expect(invalid(() => engine.canReach({ carrier: '', zip: '10001' })).message).toMatch(/carrier/);
  });

  it('a carrier that is not text says so', () => {
    expect(invalid(() => engine.canReach({ carrier: 5, zip: '10001' } as never)).message).toBe('carrier must be a string');
  });

  it('an unknown or non-can-reach carrier is a 400 naming carrier', () => {
    for (const carrier of ['carrier-zz', 'carrier-a', 'carrier-b', 'carrier-c', 'carrier-d', 'CARRIER-A', ' ', 'carrier e']) {
      expect(invalid(() => engine.canReach({ carrier, zip: '10001' })).message, carrier).toMatch(/carrier/);
    }
  });

  it('takes the carrier in any case and with spaces around it, as carriers= does; answers with its id', () => {
    const exact = engine.canReach({ carrier: 'carrier-e', zip: '10001' });
    for (const carrier of ['CARRIER-E', 'Carrier-E', ' carrier-e', 'CARRIER-E ', '\tcarrier-E\n']) {
      expect(engine.canReach({ carrier, zip: '10001' }), JSON.stringify(carrier)).toEqual(exact);
    }
    expect(exact.carrier).toBe('carrier-e');
  });

  it('accepts exactly the canReach carriers', () => {
    expect(oracle.canReachIds).toEqual(['carrier-e', 'carrier-f', 'carrier-g', 'carrier-h', 'carrier-i', 'carrier-j']);
    for (const carrier of oracle.canReachIds) expect(engine.canReach({ carrier, zip: '10001' }).carrier).toBe(carrier);
  });
});

describe('paging', () => {
  it('page size 25, true totals, and a page past the end is empty', () => {
    const offices = carrierLocs('carrier-c').filter((l) => [l.name, l.terminalCode, l.city, l.state, l.zipCode].some((f) => f.toLowerCase().includes('office')));
    // Any case and any accents: "juarez" finds the two Juárez offices of carrier-c (terminals.csv), as "Juárez" does.
    // A word of 2 characters only with its accent ("e" and a combining acute) is a word of 1: a 400, not every location.
    for (const q of ['e\u0301', '\u0301\u0301', 'e\u0301 x']) {
      expect(invalid(() => engine.carrierSearch('carrier-c', { q })).message, JSON.stringify(q)).toBe('q must contain a word of at least 2 characters');
    }
    const found = (q: string) => engine.carrierSearch('carrier-c', { q }).locations.map((l) => l.terminalCode);
    expect(found('juarez office')).toEqual(['MX-JUA-01', 'MX-XIC-01']);
    expect(found('JUÁREZ office')).toEqual(found('juarez office'));
    const first = engine.carrierSearch('carrier-c', { q: 'Office' });
    expect(first.total).toBe(offices.length);
    expect(first.totalPages).toBe(Math.ceil(offices.length / 25));
    expect(first.currentPage).toBe(1);
    expect(first.locations.length).toBe(25);
    const last = engine.carrierSearch('carrier-c', { q: 'Office', page: first.totalPages });
    expect(last.locations.length).toBe(offices.length - 25 * (first.totalPages - 1));
    for (const page of [first.totalPages + 1, 1_000_000]) {
      expect(engine.carrierSearch('carrier-c', { q: 'Office', page })).toEqual({
        success: true, locations: [], total: offices.length, currentPage: page, totalPages: first.totalPages,
      });
    }
    const pa = carrierLocs('carrier-e').filter((l) => l.state === 'PA');
    const byState = engine.carrierLocations('carrier-e', { state: 'PA' });
    expect(byState.total).toBe(pa.length);
    const past = engine.carrierLocations('carrier-e', { state: 'PA', page: byState.totalPages + 1 });
    expect(past).toEqual({ success: true, locations: [], total: pa.length, currentPage: byState.totalPages + 1, totalPages: byState.totalPages });
    const dropPast = engine.dropPoints({ zip: '10001', radius: 2, page: 50 });
    expect(dropPast.locations).toEqual([]);
    expect(dropPast.total).toBeGreaterThan(0);
    expect(dropPast.totalPages).toBe(Math.ceil(dropPast.total / 25));
  });

  it('page 2 continues page 1 without overlap', () => {
    const all = allPages((page) => engine.carrierLocations('carrier-c', { country_code: 'US', page }));
    expect(all.length).toBeGreaterThan(25);
    expect(new Set(codes(all)).size).toBe(all.length);
    expect(all.length).toBe(carrierLocs('carrier-c').filter((l) => l.country === 'US').length);
    const many = allPages((page) => engine.carrierSearch('carrier-b', { q: 'terminal', page }));
    expect(new Set(codes(many)).size).toBe(many.length);
    expect(many.length).toBe(carrierLocs('carrier-b').filter((l) => l.name.toLowerCase().includes('terminal')).length);
  });

  it('a bad page is a 400 that states the range, past the cap of 1,000,000 too', () => {
    const range = 'page must be an integer from 1 to 1000000';
    const bad = [0, -1, 1.5, 'abc', '', 'NaN', Infinity, NaN, '2.0', '1e0', '0x1', ' 1', '+1', 'x', '0', 1_000_001, '1000001', '9999999', '10000000'];
    for (const page of bad) {
      expect(invalid(() => engine.carrierSearch('carrier-a', { q: 'terminal', page: page as number })).message).toBe(range);
      expect(invalid(() => engine.carrierLocations('carrier-e', { state: 'PA', page: page as number })).message).toBe(range);
      expect(invalid(() => engine.terminalPoints('carrier-a', '100', { page: page as number })).message).toBe(range);
      expect(invalid(() => engine.dropPoints({ zip: '10001', page: page as number })).message).toBe(range);
    }
    expect(engine.carrierSearch('carrier-a', { q: 'terminal', page: '2' }).currentPage).toBe(2);
    expect(engine.carrierSearch('carrier-a', { q: 'terminal', page: '1000000' }).currentPage).toBe(1_000_000);
  });
});

describe('per-carrier text search', () => {
  /** Any case, any accents (http-api.md): letters without their combining marks, lower-case. */
  const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

  /** Every word of 2+ characters occurs, folded, in one of name, code, city, state, ZIP. */
  function expectedSearch(carrier: string, q: string): Loc[] {
    const words = folded(q).split(/\s+/).filter((w) => w.length >= 2);
    return carrierLocs(carrier).filter((l) =>
      words.every((w) => [l.name, l.terminalCode, l.city, l.state, l.zipCode].some((f) => folded(f).includes(w))),
    );
  }

  it('matches the brute-force filter for words taken from real fields', () => {
    const carriers = ['carrier-a', 'carrier-b', 'carrier-c', 'carrier-d', 'carrier-e', 'carrier-h'];
    const wordArb = fc
      .tuple(fc.constantFrom(...carriers), fc.nat(), fc.constantFrom('name', 'terminalCode', 'city', 'state', 'zipCode'), fc.nat(), fc.nat({ max: 8 }))
      .map(([carrier, i, field, start, len]) => {
        const locs = carrierLocs(carrier);
        const value = (locs[i % locs.length] as unknown as Record<string, string>)[field];
        const s = start % Math.max(1, value.length);
        return { carrier, word: value.slice(s, s + 2 + len).trim() };
      });
    fc.assert(
      fc.property(wordArb, fc.array(fc.constantFrom('', 'x', 'terminal', 'OFFICE', 'tx', 'ny', 'ca'), { maxLength: 2 }), fc.constantFrom(' ', '  ', '\t'), (pick, extra, sep) => {
        const q = [pick.word, ...extra].join(sep);
        const words = folded(q).split(/\s+/).filter((w) => w.length >= 2);
        if (q.trim() === '' || words.length === 0) {
          expect(() => engine.carrierSearch(pick.carrier, { q })).toThrow(InvalidInputError);
          return;
        }
        const expected = codes(expectedSearch(pick.carrier, q));
        const first = engine.carrierSearch(pick.carrier, { q });
        expect(first.total).toBe(expected.length);
        if (expected.length <= 250) {
          expect(codes(allPages((page) => engine.carrierSearch(pick.carrier, { q, page })))).toEqual(expected);
        } else {
          const sample = new Set(expected);
          expect(first.locations.every((l) => sample.has(l.terminalCode))).toBe(true);
        }
      }),
      { numRuns: 150, seed: SEED },
    );
  });

  it('one-character words are ignored; a query with no usable word is a 400', () => {
    const city = carrierLocs('carrier-a')[0].city;
    const withShort = allPages((page) => engine.carrierSearch('carrier-a', { q: `a ${city} z`, page }));
    const plain = allPages((page) => engine.carrierSearch('carrier-a', { q: city, page }));
    expect(codes(withShort)).toEqual(codes(plain));
    expect(codes(plain)).toEqual(codes(expectedSearch('carrier-a', city)));
    for (const q of ['a', 'a b c', '', '   ']) expect(invalid(() => engine.carrierSearch('carrier-a', { q })).message).toMatch(/q/);
  });

  it('every word must match (AND), each within one field', () => {
    const l = carrierLocs('carrier-d')[3];
    const q = `${l.city} ${l.state}`;
    const found = allPages((page) => engine.carrierSearch('carrier-d', { q, page }));
    expect(codes(found)).toContain(l.terminalCode);
    expect(codes(found)).toEqual(codes(expectedSearch('carrier-d', q)));
    expect(engine.carrierSearch('carrier-d', { q: `${l.city} zzzz` }).total).toBe(0);
  });
});

describe('coverage statistics', () => {
  /**
   * Coverage computed from the raw rows: locations by country and first-level division (the state
   * column), distinct ZIPs served by US state, locations by country.
   */
  function expectedCoverage(carrier: string, state?: string) {
    const locs = carrierLocs(carrier).filter((l) => state === undefined || l.state === state);
    const points = carrierPoints(carrier).filter((p) => state === undefined || p.state === state);
    const states = new Map<string, { state: string; country: string; locations: number; zips: Set<string> }>();
    const entry = (country: string, s: string) =>
      states.get(`${country} ${s}`) ?? states.set(`${country} ${s}`, { state: s, country, locations: 0, zips: new Set() }).get(`${country} ${s}`)!;
    for (const l of locs) if (l.state !== '') entry(l.country, l.state).locations++;
    for (const p of points) entry('US', p.state).zips.add(p.zip);
    const countries = new Map<string, number>();
    for (const l of locs) countries.set(l.country, (countries.get(l.country) ?? 0) + 1);
    const byCountryThenState = (a: { country: string; state: string }, b: { country: string; state: string }) =>
      a.country < b.country ? -1 : a.country > b.country ? 1 : a.state < b.state ? -1 : a.state > b.state ? 1 : 0;
    return {
      success: true,
      totalLocations: locs.length,
      states: [...states.values()].sort(byCountryThenState).map((v) => ({ state: v.state, country: v.country, locations: v.locations, zipsServed: v.zips.size })),
      countries: [...countries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([country, n]) => ({ country, locations: n })),
    };
  }

  it('carrier-a / carrier-b coverage of a state equals the raw counts', () => {
    for (const [carrier, state] of [['carrier-a', 'TX'], ['carrier-a', 'CA'], ['carrier-a', 'VT'], ['carrier-b', 'NY'], ['carrier-a', 'ak']]) {
      const expected = expectedCoverage(carrier, state.toUpperCase());
      expect(engine.coverage(carrier, { state }), `${carrier} ${state}`).toEqual(expected);
    }
    // a served state without a terminal: locations 0, ZIPs served counted
    const vt = engine.coverage('carrier-a', { state: 'VT' });
    expect(vt.totalLocations).toBe(0);
    expect(vt.states[0].zipsServed).toBe(new Set(carrierPoints('carrier-a').filter((p) => p.state === 'VT').map((p) => p.zip)).size);
    expect(vt.states[0].zipsServed).toBeGreaterThan(0);
  });

  it('carrier-a and carrier-b without state is a 400 naming state', () => {
    expect(invalid(() => engine.coverage('carrier-a', {})).message).toMatch(/state/);
    expect(invalid(() => engine.coverage('carrier-b', {})).message).toMatch(/state/);
  });

  it('regional and national carriers: the whole network, or one state', () => {
    for (const carrier of ['carrier-e', 'carrier-g', 'carrier-i', 'carrier-f', 'carrier-d']) {
      expect(engine.coverage(carrier, {}), carrier).toEqual(expectedCoverage(carrier));
    }
    expect(engine.coverage('carrier-e', { state: 'pa' })).toEqual(expectedCoverage('carrier-e', 'PA'));
  });

  it('carrier-c coverage by country, case-insensitive', () => {
    const de = carrierLocs('carrier-c').filter((l) => l.country === 'DE').length;
    expect(de).toBeGreaterThan(0);
    for (const cc of ['DE', 'de']) {
      const result = engine.coverage('carrier-c', { country_code: cc });
      expect(result.totalLocations).toBe(de);
      expect(result.countries).toEqual([{ country: 'DE', locations: de }]);
    }
    const all = engine.coverage('carrier-c', {});
    expect(all.totalLocations).toBe(carrierLocs('carrier-c').length);
    expect(all.countries).toEqual(expectedCoverage('carrier-c').countries);
    expect(all.countries.length).toBeGreaterThanOrEqual(120);
  });

  it('carrier-h and carrier-c: foreign offices are grouped by country and named division, never by a code shared between countries', () => {
    const result = engine.coverage('carrier-h', {});
    expect(result.totalLocations).toBe(carrierLocs('carrier-h').length);
    expect(result).toEqual(expectedCoverage('carrier-h'));
    const countries = new Set(result.states.map((s) => s.country));
    expect([...countries].sort()).toEqual(['CA', 'MX', 'US']);
    // GeoNames' numeric codes ("08" is Ontario and a Mexican state) never reach the data
    expect(result.states.filter((s) => /^\d+$/.test(s.state))).toEqual([]);
    expect(result.states).toContainEqual(expect.objectContaining({ state: 'Ontario', country: 'CA' }));
    const worldwide = engine.coverage('carrier-c', {});
    expect(worldwide).toEqual(expectedCoverage('carrier-c'));
    expect(worldwide.states.every((s) => s.state !== '' && !/^\d+$/.test(s.state))).toBe(true);
    const paris = carrierLocs('carrier-c').find((l) => l.country === 'FR' && l.city === 'Paris');
    expect(paris?.state).toBe('Île-de-France');
  });
});

describe('carrier-a service days', () => {
  const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
  const LETTERS = 'MTWRFSU';

  /** Next date strictly after `date` whose weekday letter is in `days` and that is no us-ltl holiday (carrier-a's calendar). */
  function nextDay(date: string, days: string): string {
    for (let i = 1; i <= 14; i++) {
      const d = new Date(Date.parse(`${date}T00:00:00Z`) + i * 86_400_000);
      if (days.includes(LETTERS[(d.getUTCDay() + 6) % 7]) && !referenceIsHoliday(d)) return d.toISOString().slice(0, 10);
    }
    throw new Error('no day');
  }

  it('a clock that is not a valid Date is a 400 naming now', () => {
    for (const now of [new Date('x'), '2025-01-01', 0]) {
      expect(invalid(() => engine.serviceDays('carrier-a', { zip: '10001' }, { now: now as Date })).message).toBe('now must be a valid Date');
    }
  });

  it('a TR point from a Thursday gives the next Tuesday; from a Tuesday, the Thursday after', () => {
    const tr = carrierPoints('carrier-a').find((p) => p.serviceDays === 'TR')!;
    expect(tr).toBeDefined();
    const thursday = '2025-01-02';
    expect(new Date(`${thursday}T00:00:00Z`).getUTCDay()).toBe(4);
    const result = engine.serviceDays('carrier-a', { zip: tr.zip, date: thursday });
    expect(result.nextPickupDate).toBe('2025-01-07');
    expect(result.nextDeliveryDate).toBe('2025-01-07');
    expect(result.serviceDays).toEqual({ monday: false, tuesday: true, wednesday: false, thursday: true, friday: false, saturday: false, sunday: false });
    expect(result.terminalCode).toBe(tr.terminalCode);
    expect(result.city).toBe(tr.city);
    expect(result.state).toBe(tr.state);
    expect(result.zip).toBe(tr.zip);
    expect(engine.serviceDays('carrier-a', { zip: tr.zip, date: '2025-01-07' }).nextPickupDate).toBe('2025-01-09');
    expect(engine.serviceDays('carrier-a', { zip: tr.zip, date: '2025-01-06' }).nextPickupDate).toBe('2025-01-07');
  });

  it('an F point from a Friday is the Friday a week later (strictly after)', () => {
    const f = carrierPoints('carrier-a').find((p) => p.serviceDays === 'F')!;
    expect(engine.serviceDays('carrier-a', { zip: f.zip, date: '2025-01-03' }).nextPickupDate).toBe('2025-01-10');
    expect(engine.serviceDays('carrier-a', { zip: f.zip, date: '2024-12-31' }).nextPickupDate).toBe('2025-01-03');
  });

  it('matches the raw schedule for random served points and dates', () => {
    const points = carrierPoints('carrier-a');
    fc.assert(
      fc.property(fc.nat({ max: points.length - 1 }), fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), (i, d) => {
        const p = points[i];
        const date = d.toISOString().slice(0, 10);
        const result = engine.serviceDays('carrier-a', { zip: p.zip, city: p.city, date });
        expect(result.served).toBe(true);
        expect(result.terminalCode).toBe(p.terminalCode);
        WEEK.forEach((day, k) => expect(result.serviceDays[day], day).toBe(p.serviceDays.includes(LETTERS[k])));
        expect(result.nextPickupDate).toBe(nextDay(date, p.serviceDays));
        expect(result.nextDeliveryDate).toBe(nextDay(date, p.serviceDays));
      }),
      { numRuns: 200, seed: SEED + 1 },
    );
  });

  it('without a date: the next service day after today where the ZIP is, by the clock passed in', () => {
    // Wednesday 2025-01-08 at 20:00 UTC is Wednesday in every US zone (15:00 in New York, 10:00 in Honolulu)
    const now = new Date('2025-01-08T20:00:00Z');
    for (const p of carrierPoints('carrier-a').filter((_, i) => i % 97 === 0)) {
      expect(engine.serviceDays('carrier-a', { zip: p.zip, city: p.city }, { now }).nextPickupDate, p.zip).toBe(nextDay('2025-01-08', p.serviceDays));
    }
  });

  it('dates stay YYYY-MM-DD at the end of the calendar (9999-12-31 is a valid date input)', () => {
    const p = carrierPoints('carrier-a')[0];
    let next: string | null | undefined;
    try {
      next = engine.serviceDays('carrier-a', { zip: p.zip, date: '9999-12-31' }).nextPickupDate;
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError); // refusing the date is fine too
      return;
    }
    expect(next === null || /^\d{4}-\d{2}-\d{2}$/.test(next!), `nextPickupDate ${next}`).toBe(true);
  });

  it('a ZIP carrier-a does not serve: served false, no dates; bad dates are a 400', () => {
    const unserved = oracle.zips.find((z) => !oracle.servicePointsOfZip(z.zip).some((p) => p.carrier === 'carrier-a'))!;
    const result = engine.serviceDays('carrier-a', { zip: unserved.zip, date: '2025-01-01' });
    expect(result.served).toBe(false);
    expect(result.nextPickupDate).toBeNull();
    expect(Object.values(result.serviceDays).every((v) => v === false)).toBe(true);
    for (const date of ['2025-02-30', '2025-13-01', 'tomorrow', '2025/01/01']) expect(invalid(() => engine.serviceDays('carrier-a', { zip: '10001', date })).message).toMatch(/date/);
  });
});

describe('carrier-a transit days', () => {
  function band(miles: number): number {
    if (miles <= 250) return 1;
    if (miles <= 500) return 2;
    if (miles <= 1000) return 3;
    if (miles <= 1500) return 4;
    if (miles <= 2000) return 5;
    return 6;
  }

  it('base days from terminal-to-terminal distance bands, plus both add-on days', () => {
    const points = carrierPoints('carrier-a');
    const byZip = new Map<string, ServicePoint>();
    for (const p of points) if (!byZip.has(p.zip)) byZip.set(p.zip, p);
    const served = [...byZip.values()];
    const bands = new Set<number>();
    fc.assert(
      fc.property(fc.nat({ max: served.length - 1 }), fc.nat({ max: served.length - 1 }), (i, j) => {
        const o = served[i];
        const d = served[j];
        const a = oracle.terminal('carrier-a', o.terminalCode);
        const b = oracle.terminal('carrier-a', d.terminalCode);
        const miles = haversineMiles(a.lat, a.lng, b.lat, b.lng);
        const result = engine.transitInfo('carrier-a', { origin_zip: o.zip, dest_zip: d.zip });
        // The band of the distance as the answer shows it, to 0.1 mi.
        const shown = Math.round(miles * 10) / 10;
        if ([250, 500, 1000, 1500, 2000].some((edge) => Math.abs(miles * 10 - (edge * 10 + 0.5)) < 1e-6)) return;
        bands.add(band(shown));
        expect(result.served).toBe(true);
        expect(result.origin).toEqual({ terminalCode: a.terminalCode, name: a.name, city: a.city, state: a.state, addOnDays: o.addOnDays });
        expect(result.destination).toEqual({ terminalCode: b.terminalCode, name: b.name, city: b.city, state: b.state, addOnDays: d.addOnDays });
        expect(Math.abs(result.distanceMiles! - miles)).toBeLessThanOrEqual(TOLERANCE);
        expect(result.distanceMiles).toBe(shown);
        expect(result.baseTransitDays).toBe(band(shown));
        expect(result.addOnDays).toBe(o.addOnDays + d.addOnDays);
        expect(result.transitDays).toBe(band(shown) + o.addOnDays + d.addOnDays);
      }),
      { numRuns: 300, seed: SEED + 2 },
    );
    expect([...bands].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('delivery dates match a day-by-day walk of the calendar for random points and ship dates', () => {
    const LETTERS = 'MTWRFSU';
    const rowsOfZip = new Map<string, ServicePoint[]>();
    for (const p of carrierPoints('carrier-a')) rowsOfZip.set(p.zip, [...(rowsOfZip.get(p.zip) ?? []), p]);
    // ZIPs with one row of carrier-a: their service days are not a matter of which city is meant.
    const single = [...rowsOfZip.values()].filter((rows) => rows.length === 1).map((rows) => rows[0]);
    const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const weekday = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
    const served = (date: string, days: string) => days.includes(LETTERS[weekday(date)]) && !isReferenceHoliday(date);
    fc.assert(
      fc.property(
        fc.nat({ max: single.length - 1 }),
        fc.nat({ max: single.length - 1 }),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
        (i, j, d) => {
          const o = single[i];
          const dest = single[j];
          const shipDate = d.toISOString().slice(0, 10);
          const result = engine.transitInfo('carrier-a', { origin_zip: o.zip, dest_zip: dest.zip, ship_date: shipDate });
          let pickup = shipDate;
          while (!served(pickup, o.serviceDays)) pickup = addDays(pickup, 1);
          let delivery = pickup;
          for (let left = result.transitDays!; left > 0; ) {
            delivery = addDays(delivery, 1);
            if (weekday(delivery) < 5 && !isReferenceHoliday(delivery)) left--;
          }
          while (!served(delivery, dest.serviceDays)) delivery = addDays(delivery, 1);
          const skipped: string[] = [];
          for (let day = shipDate; day < delivery; day = addDays(day, 1)) if (isReferenceHoliday(day)) skipped.push(day);
          expect(result).toMatchObject({ shipDate, pickupDate: pickup, estimatedDeliveryDate: delivery });
          expect(result.holidaysSkipped.map((h) => h.date)).toEqual(skipped);
        },
      ),
      { numRuns: 300, seed: SEED + 3 },
    );
  });

  it('a distance shown as a band\'s edge is in that band: 250.03 mi is shown as 250, and is 1 day', () => {
    for (const [origin_zip, dest_zip, edge, days] of [['49801', '49905', 250, 1], ['35005', '75103', 500, 2]] as const) {
      const result = engine.transitInfo('carrier-a', { origin_zip, dest_zip });
      const a = oracle.terminal('carrier-a', result.origin!.terminalCode);
      const b = oracle.terminal('carrier-a', result.destination!.terminalCode);
      const miles = haversineMiles(a.lat, a.lng, b.lat, b.lng);
      expect(miles).toBeGreaterThan(edge);
      expect(miles).toBeLessThan(edge + 0.05);
      expect(result).toMatchObject({ distanceMiles: edge, baseTransitDays: days });
    }
  });

  it('an unserved ZIP gives served false and null figures; malformed ZIPs are a 400 naming the parameter', () => {
    const unserved = oracle.zips.find((z) => !oracle.servicePointsOfZip(z.zip).some((p) => p.carrier === 'carrier-a'))!;
    const served = carrierPoints('carrier-a')[0];
    const result = engine.transitInfo('carrier-a', { origin_zip: served.zip, dest_zip: unserved.zip });
    expect(result.served).toBe(false);
    expect(result.destination).toBeNull();
    expect(result.transitDays).toBeNull();
    expect(invalid(() => engine.transitInfo('carrier-a', { origin_zip: '123', dest_zip: '10001' })).message).toMatch(/origin_zip/);
    expect(invalid(() => engine.transitInfo('carrier-a', { origin_zip: '10001', dest_zip: 'x' })).message).toMatch(/dest_zip/);
  });
});

describe('carrier-a metadata and ZIP lookups', () => {
  it('carrierInfo reports the points-served row (direct and add-on days)', () => {
    const indirect = carrierPoints('carrier-a').find((p) => !p.direct)!;
    const direct = carrierPoints('carrier-a').find((p) => p.direct && p.addOnDays === 0)!;
    const info = oracle.carrierById.get('carrier-a')!;
    for (const p of [indirect, direct]) {
      expect(engine.carrierInfo('carrier-a', { zip: p.zip })).toEqual({
        success: true, carrier: 'carrier-a', name: info.name, scac: info.scac, zip: p.zip, city: p.city, state: p.state,
        served: true, terminalCode: p.terminalCode, direct: p.direct, addOnDays: p.addOnDays,
        // the sample's file has no point-attribute columns
        highCost: false, highCostNote: null, interlineScac: null,
      });
    }
  });

  it('?zip= lists the serving terminals, narrowed by city; nothing served is an empty 200', () => {
    for (const carrier of ['carrier-a', 'carrier-b']) {
      const p = carrierPoints(carrier)[123];
      const page = engine.carrierLocations(carrier, { zip: p.zip });
      const expected = carrierPoints(carrier).filter((q) => q.zip === p.zip).map((q) => oracle.record(oracle.terminal(carrier, q.terminalCode)));
      expect(page.locations).toEqual(expected);
      expect(engine.carrierLocations(carrier, { zip: p.zip, city: p.city.toUpperCase() }).locations).toEqual(expected);
      expect(engine.carrierLocations(carrier, { zip: p.zip, city: 'Nowhere Special' }).total).toBe(0);
    }
    const unserved = oracle.zips.find((z) => !oracle.servicePointsOfZip(z.zip).some((p) => p.carrier === 'carrier-a'))!;
    expect(engine.carrierLocations('carrier-a', { zip: unserved.zip })).toEqual({ success: true, locations: [], total: 0, currentPage: 1, totalPages: 0 });
    expect(invalid(() => engine.carrierLocations('carrier-a', { zip: '123' })).message).toMatch(/zip/);
  });

  it('station / terminal: the points that terminal serves, as records of the served places', () => {
    for (const carrier of ['carrier-a', 'carrier-b']) {
      const code = carrierPoints(carrier)[500].terminalCode;
      const served = carrierPoints(carrier).filter((p) => p.terminalCode === code);
      const found = allPages((page) => engine.terminalPoints(carrier, code, { page }));
      expect(found.length).toBe(served.length);
      const byZip = new Map(found.map((r) => [r.address.zipCode, r]));
      for (const p of served) {
        const r = byZip.get(p.zip)!;
        expect(r, p.zip).toBeDefined();
        expect(r.terminalCode).toBe(code);
        expect(r.carrier).toBe(carrier);
        expect(r.address.city).toBe(p.city);
        expect(r.address.state).toBe(p.state);
        const z = oracle.zipByCode.get(p.zip)!;
        expect(r.location).toEqual({ latitude: z.lat, longitude: z.lng });
      }
    }
    expect(engine.terminalPoints('carrier-a', 'no-such-station')).toEqual({ success: true, locations: [], total: 0, currentPage: 1, totalPages: 0 });
  });

  it('carrier batch: the serving terminals per ZIP', () => {
    const ps = carrierPoints('carrier-b').slice(1000, 1005);
    const unserved = oracle.zips.find((z) => !oracle.servicePointsOfZip(z.zip).some((p) => p.carrier === 'carrier-b'))!;
    const result = engine.carrierBatch('carrier-b', { zips: [...ps.map((p) => p.zip), unserved.zip] });
    for (const p of ps) expect(result.results[p.zip]).toEqual([oracle.record(oracle.terminal('carrier-b', p.terminalCode))]);
    expect(result.results[unserved.zip]).toEqual([]);
    expect(result.total).toBe(ps.length);
  });
});

describe('batch validation', () => {
  const zips = (n: number) => Array.from({ length: n }, (_, i) => String(10001 + i));

  it('empty, too many, duplicate and malformed lists are 400s naming the problem', () => {
    for (const batch of [
      (body: { zips: string[] }, max?: number) => engine.searchBatch(body, { maxPerRequest: max }),
      (body: { zips: string[] }, max?: number) => engine.carrierBatch('carrier-a', body, { maxPerRequest: max }),
    ]) {
      expect(invalid(() => batch({ zips: [] })).message).toMatch(/zips/);
      expect(invalid(() => batch({ zips: zips(11) }, 10)).message).toMatch(/10/);
      expect(() => batch({ zips: zips(10) }, 10)).not.toThrow();
      expect(invalid(() => batch({ zips: zips(51) })).message).toMatch(/50/);
      expect(invalid(() => batch({ zips: ['10001', '10002', '10001'] })).message).toMatch(/zips\[2\]/);
      expect(invalid(() => batch({ zips: ['10001', '1234', 'abcde'] })).message).toMatch(/zips\[1\]/);
      expect(invalid(() => batch({ zips: ['10001', '10002', '10003', 'x'] })).message).toMatch(/zips\[3\]/);
      expect(invalid(() => batch({ zips: ['10001', 10002 as unknown as string] })).message).toBe('zips[1]: zips must contain only strings');
      expect(invalid(() => batch({} as { zips: string[] })).message).toMatch(/zips/);
      expect(invalid(() => batch({ zips: '10001' as unknown as string[] })).message).toMatch(/zips/);
    }
  });

  it('searchBatch reports maxPerRequest', () => {
    expect(engine.searchBatch({ zips: ['10001'] }, { maxPerRequest: 20 }).maxPerRequest).toBe(20);
    expect(engine.searchBatch({ zips: ['10001'] }).maxPerRequest).toBe(50);
  });
});

describe('drop points', () => {
  it('dropPoint by id returns the raw record; an unknown id is a NotFoundError', () => {
    const j = carrierLocs('carrier-j');
    for (const l of [j[0], j[1234], j[j.length - 1]]) expect(engine.dropPoint(l.terminalCode)).toEqual({ success: true, location: oracle.record(l) });
    for (const id of ['DP00000', 'nope', '', '100']) {
      let error: unknown;
      try {
        engine.dropPoint(id);
      } catch (e) {
        error = e;
      }
      expect(error, id).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).status).toBe(404);
    }
  });

  it('default radius is 25 miles', () => {
    const z = oracle.zipByCode.get('63101')!;
    const within = carrierLocs('carrier-j').filter((l) => haversineMiles(z.lat, z.lng, l.lat, l.lng) <= 25).length;
    expect(engine.dropPoints({ zip: '63101' }).total).toBe(within);
  });
});

describe('carrier-c, carrier-d, carrier-h lookups', () => {
  const cLocs = () => carrierLocs('carrier-c');

  it('carrier-c by country_code is case-insensitive, and /country/:code agrees', () => {
    for (const cc of ['DE', 'fr', 'Jp']) {
      const expected = codes(cLocs().filter((l) => l.country === cc.toUpperCase()));
      expect(expected.length).toBeGreaterThan(0);
      expect(codes(allPages((page) => engine.carrierLocations('carrier-c', { country_code: cc, page })))).toEqual(expected);
      expect(codes(allPages((page) => engine.countryLocations('carrier-c', cc, { page })))).toEqual(expected);
      expect(codes(allPages((page) => engine.countryLocations('carrier-c', cc.toLowerCase(), { page })))).toEqual(expected);
    }
    const berlin = cLocs().find((l) => l.country === 'DE')!;
    expect(codes(engine.carrierLocations('carrier-c', { country_code: 'de', city: berlin.city.toLowerCase() }).locations)).toEqual(
      codes(cLocs().filter((l) => l.country === 'DE' && l.city === berlin.city)),
    );
    expect(invalid(() => engine.carrierLocations('carrier-c', { country_code: 'DEU' })).message).toMatch(/country_code/);
    expect(invalid(() => engine.carrierLocations('carrier-c', {})).message).toMatch(/country_code/);
  });

  it('carrier-c batch by country_codes', () => {
    const result = engine.carrierBatch('carrier-c', { country_codes: ['de', 'FR', 'zz'] });
    const get = (cc: string) => Object.entries(result.results).find(([k]) => k.toUpperCase() === cc)?.[1];
    const de = cLocs().filter((l) => l.country === 'DE');
    const fr = cLocs().filter((l) => l.country === 'FR');
    expect(get('DE')).toEqual(de.map((l) => oracle.record(l)));
    expect(get('FR')).toEqual(fr.map((l) => oracle.record(l)));
    expect(get('ZZ')).toEqual([]);
    expect(result.total).toBe(de.length + fr.length);
    expect(invalid(() => engine.carrierBatch('carrier-c', { country_codes: ['DE', 'xyz'] })).message).toMatch(/country_codes\[1\]/);
    expect(invalid(() => engine.carrierBatch('carrier-c', { country_codes: ['DE', 'de'] })).message).toMatch(/country_codes\[1\]/);
  });

  it('carrier-d by region (case-insensitive); an unknown region is a 400', () => {
    for (const region of ['northeast', 'midwest', 'South', 'WEST']) {
      const expected = codes(carrierLocs('carrier-d').filter((l) => l.region === region.toLowerCase()));
      expect(expected.length).toBeGreaterThan(0);
      expect(codes(allPages((page) => engine.carrierLocations('carrier-d', { region, page })))).toEqual(expected);
    }
    expect(invalid(() => engine.carrierLocations('carrier-d', { region: 'north' })).message).toMatch(/region/);
    expect(invalid(() => engine.carrierLocations('carrier-d', {})).message).toMatch(/region/);
  });

  it('carrier-e/-f/-g/-i by state and carrier-h by country', () => {
    for (const carrier of ['carrier-e', 'carrier-f', 'carrier-g', 'carrier-i']) {
      const state = carrierLocs(carrier)[0].state;
      const expected = carrierLocs(carrier).filter((l) => l.state === state && l.country === 'US').map((l) => oracle.record(l));
      expect(allPages((page) => engine.carrierLocations(carrier, { state: state.toLowerCase(), page })), carrier).toEqual(expected);
    }
    for (const country of ['US', 'ca', 'Mx']) {
      const expected = codes(carrierLocs('carrier-h').filter((l) => l.country === country.toUpperCase()));
      expect(codes(allPages((page) => engine.carrierLocations('carrier-h', { country, page })))).toEqual(expected);
    }
    expect(invalid(() => engine.carrierLocations('carrier-e', { state: 'Pennsylvania' })).message).toMatch(/state/);
  });
});
