// Property tests: the engine's unified queries and drop-point scans against the brute-force oracle
// built from the raw sample files (test/engine/oracle.ts). Seeded, so a failure replays exactly.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine, NearestTerminal, NormalizedLocation } from '../../engine/index.js';
import { sampleEngine } from './sample-engine.js';
import { locKey, releaseStableSampleDir, sampleOracle, type CarrierAnswer, type GazPlace, type Hit, type Oracle, type OraclePlace } from './oracle.js';

const SEED = 20240611;
const TOLERANCE = 0.05 + 1e-9;
const PAGE_SIZE = 25;

/** ZIPs at the edges of the map: the Aleutians near the antimeridian, Alaska, Hawaii, Wake Island, the Marshall Islands. */
const EDGE_ZIPS = [
  '99546', '99547', '99660', '99742', '99769', '99553', '99571', '99501', '99701', '99723', '99950', '99901',
  '96898', '96960', '96970', '96813', '96720', '96701', '96766', '96779', '00501', '04619', '33040', '98221', '59001',
];

let engine: Engine;
let oracle: Oracle;

beforeAll(() => {
  engine = sampleEngine();
  oracle = sampleOracle();
  releaseStableSampleDir();
});

// ---------------------------------------------------------------- arbitraries (need the oracle)

const knownZip = () => fc.integer({ min: 0, max: oracle.zips.length - 1 }).map((i) => oracle.zips[i].zip);
/** A ZIP near a random point of the contiguous US, Alaska (incl. the Aleutians) or Hawaii. */
const zipNearPoint = () =>
  fc
    .oneof(
      { weight: 6, arbitrary: fc.tuple(fc.double({ min: 25, max: 49, noNaN: true }), fc.double({ min: -124.5, max: -67, noNaN: true })) },
      { weight: 2, arbitrary: fc.tuple(fc.double({ min: 51.5, max: 70.5, noNaN: true }), fc.double({ min: -179.9, max: -130, noNaN: true })) },
      { weight: 1, arbitrary: fc.tuple(fc.double({ min: 18.9, max: 22.3, noNaN: true }), fc.double({ min: -160.3, max: -154.8, noNaN: true })) },
    )
    .map(([lat, lng]) => oracle.nearestZip(lat, lng).zip);
const unknownZip = () =>
  fc.oneof(
    fc.integer({ min: 0, max: 99_999 }).map((n) => String(n).padStart(5, '0')).filter((z) => !oracle.zipByCode.has(z)),
    fc.constantFrom(...oracle.militaryZips.slice(0, 200)),
  );
const zipArb = () =>
  fc.oneof(
    { weight: 5, arbitrary: knownZip() },
    { weight: 3, arbitrary: zipNearPoint() },
    { weight: 2, arbitrary: fc.constantFrom(...EDGE_ZIPS) },
  );

/** Radius as a library caller (number) or the HTTP edge (string) would pass it; 1, 25 and 100 often. */
const radiusArb = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(1, 25, 100, 100, 99.99) },
  { weight: 3, arbitrary: fc.double({ min: 1, max: 100, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 100 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }).map(String) },
);
const optionalRadius = fc.option(radiusArb, { nil: undefined });
const radiusOf = (r: number | string | undefined) => (r === undefined ? 25 : Number(r));

/** `carriers=`: a subset of the unified ids, maybe with non-unified or unknown ids, as a list or a string. */
const carriersArb = () =>
  fc.option(
    fc
      .tuple(
        // At least one id: text naming none (`,`, an empty list) is a 400 (rules.test.ts), not "all".
        fc.subarray([...oracle.unifiedIds, 'carrier-c', 'carrier-j', 'carrier-zz', 'nope'], { minLength: 1 }),
        fc.constantFrom(',', ', ', ' ,'),
        fc.boolean(),
      )
      .map(([ids, sep, asArray]) => (asArray ? ids : ids.join(sep))),
    { nil: undefined },
  );

/** Case, spacing and punctuation variants of a place name that must resolve to the same place. */
const nameVariant = (name: string) =>
  fc.constantFrom(
    name,
    name.toUpperCase(),
    name.toLowerCase(),
    `  ${name}  `,
    name.replace(/ /g, '  '),
    name.replace(/ /g, '-'),
    name.replace(/\bSaint\b/g, 'St.').replace(/\bFort\b/g, 'Ft').replace(/\bMount\b/g, 'Mt.'),
  );

type PlaceQ = { zip?: string | undefined; city?: string | undefined; state?: string | undefined };

const placeFromZip = () => zipArb().map((zip) => oracle.zipByCode.get(zip)!);
const cityStateArb = () =>
  placeFromZip().chain((z) => nameVariant(z.city).chain((city) => fc.constantFrom(z.state, z.state.toLowerCase()).map((state) => ({ city, state }))));
const cityAloneArb = () => placeFromZip().chain((z) => nameVariant(z.city).map((city) => ({ city })));
const stateAloneArb = () => fc.constantFrom(...[...oracle.stateMeans.keys()]).map((state) => ({ state }));

const placeQueryArb = (): fc.Arbitrary<PlaceQ> =>
  fc.oneof(
    { weight: 6, arbitrary: zipArb().map((zip) => ({ zip })) },
    { weight: 1, arbitrary: unknownZip().map((zip) => ({ zip })) },
    { weight: 3, arbitrary: cityStateArb() },
    { weight: 1, arbitrary: cityAloneArb() },
    { weight: 2, arbitrary: stateAloneArb() },
    { weight: 1, arbitrary: zipArb().map((zip) => ({ zip, state: oracle.zipByCode.get(zip)!.state })) },
    { weight: 1, arbitrary: fc.tuple(unknownZip(), cityStateArb()).map(([zip, cs]) => ({ zip, ...cs })) },
  );

// ---------------------------------------------------------------- comparison helpers

const normKey = (n: { carrier: string; name: string; zip: string; lat: number; lng: number }) => locKey(n);

/** Resolves with the oracle; a city alone may tie, so accept the engine's choice among the tied bests. */
function oracleResolve(q: PlaceQ, engineResolved: { state: string } | null): OraclePlace | null {
  return oracle.resolve(q, (candidates: GazPlace[]) => {
    const chosen = candidates.find((c) => c.state === engineResolved?.state);
    expect(chosen, `city "${q.city}" resolved to ${engineResolved?.state}, not one of the places with most ZIPs (${candidates.map((c) => c.state)})`).toBeDefined();
    return chosen!;
  });
}

function expectResolved(actual: { city: string; state: string; lat: number; lng: number } | null, expected: OraclePlace | null) {
  if (expected === null) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).not.toBeNull();
  expect(actual!.city).toBe(expected.city);
  expect(actual!.state).toBe(expected.state);
  expect(actual!.lat).toBeCloseTo(expected.lat, 9);
  expect(actual!.lng).toBeCloseTo(expected.lng, 9);
}

function expectLocation(actual: NormalizedLocation, hit: Hit, match: 'exact' | 'nearby') {
  const l = hit.loc;
  expect(normKey(actual)).toBe(locKey(l));
  expect(actual.match).toBe(match);
  expect(actual.carrierName).toBe(oracle.carrierById.get(l.carrier)!.name);
  expect(actual.terminalCode).toBe(l.terminalCode);
  expect(actual.phone).toBe(l.phone);
  expect(actual.city).toBe(l.city);
  expect(actual.state).toBe(l.state);
  expect(actual.address).toContain(l.line1);
  if (l.line2) expect(actual.address).toContain(l.line2);
  expectMiles(actual.distanceMiles, hit.miles);
}

/**
 * A distance as answers give it: the oracle's miles rounded to 0.1 (http-api.md). Within half a
 * tenth of the oracle, and on the tenths' grid: the engine's haversine and the oracle's may round
 * a distance that ends in 5 hundredths either way.
 */
function expectMiles(answered: number, oracleMiles: number) {
  expect(Math.abs(answered - oracleMiles)).toBeLessThanOrEqual(TOLERANCE);
  expect(Math.abs(answered * 10 - Math.round(answered * 10)), `${answered} mi is not rounded to 0.1`).toBeLessThan(1e-9);
}

function expectCarrierList(actual: NormalizedLocation[] | undefined, answer: CarrierAnswer) {
  expect(actual, `byCarrier has no key ${answer.carrier}`).toBeDefined();
  expect(actual!.map(normKey), `${answer.carrier} (${answer.kind})`).toEqual(answer.hits.map((h) => locKey(h.loc)));
  actual!.forEach((a, i) => expectLocation(a, answer.hits[i], answer.kind === 'exact' ? 'exact' : 'nearby'));
}

function expectNearestTerminal(actual: NearestTerminal | null, hit: Hit | null) {
  if (hit === null) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).not.toBeNull();
  expect(actual!.name).toBe(hit.loc.name);
  expect(actual!.city).toBe(hit.loc.city);
  expect(actual!.state).toBe(hit.loc.state);
  expect(actual!.zip).toBe(hit.loc.zipCode);
  expect(actual!.address).toContain(hit.loc.line1);
  expectMiles(actual!.distanceMiles, hit.miles);
}

/** Results of every carrier: exact before nearby, then distance, then carrier id and terminal code. */
function unifiedOrder(answers: CarrierAnswer[]): { hit: Hit; exact: boolean }[] {
  return answers
    .flatMap((a) => a.hits.map((hit) => ({ hit, exact: a.kind === 'exact' })))
    .sort((a, b) => Number(b.exact) - Number(a.exact) || a.hit.miles - b.hit.miles || a.hit.loc.rank - b.hit.loc.rank);
}

const byDistanceThenId = (a: CarrierAnswer, b: CarrierAnswer) => a.hits[0].miles - b.hits[0].miles || (a.carrier < b.carrier ? -1 : 1);

let skipped = 0;
/** What the generated searches exercised: place kinds and per-carrier outcomes. */
const seen = { zip: 0, city: 0, state: 0, unresolved: 0, exact: 0, nearby: 0, none: 0, mixed: 0 };

/** Checks one unified search against the oracle; returns false when the run is undecidable (radius edge). */
function checkSearch(q: PlaceQ & { radius?: number | string | undefined; carriers?: string | string[] | undefined }): boolean {
  const result = engine.search(q);
  const place = oracleResolve(q, result.resolved);
  const radius = radiusOf(q.radius);
  const scope = oracle.scope(q.carriers);
  const answers = place ? scope.map((c) => oracle.answer(place, c, radius)) : [];
  if (answers.some((a) => a.borderline)) {
    skipped++;
    return false;
  }
  expect(result.success).toBe(true);
  expect(result.query.zip).toBe(q.zip ?? '');
  expect(result.query.city.trim()).toBe((q.city ?? '').trim());
  expect(result.query.state.toUpperCase()).toBe((q.state ?? '').toUpperCase());
  expect(result.query.radiusMiles).toBe(radius);
  expectResolved(result.resolved, place);
  expect([...result.carriers].sort()).toEqual([...scope].sort());
  expect(Object.keys(result.byCarrier).sort()).toEqual([...scope].sort());
  seen[place ? place.kind : 'unresolved']++;
  for (const a of answers) seen[a.kind]++;
  if (answers.some((a) => a.kind === 'exact') && answers.some((a) => a.kind === 'nearby')) seen.mixed++;
  if (place === null) {
    for (const c of scope) expect(result.byCarrier[c]).toEqual([]);
    expect(result.results).toEqual([]);
    expect(result.total).toBe(0);
    expect(result.matchType).toBe('none');
    return true;
  }
  for (const a of answers) expectCarrierList(result.byCarrier[a.carrier], a);
  const expected = unifiedOrder(answers);
  expect(result.results.map(normKey)).toEqual(expected.map((e) => locKey(e.hit.loc)));
  result.results.forEach((r, i) => expectLocation(r, expected[i].hit, expected[i].exact ? 'exact' : 'nearby'));
  expect(result.total).toBe(result.results.length);
  const matchType = answers.some((a) => a.kind === 'exact') ? 'exact' : answers.some((a) => a.kind === 'nearby') ? 'nearby' : 'none';
  expect(result.matchType).toBe(matchType);
  // exact results never follow a nearby one
  const firstNearby = result.results.findIndex((r) => r.match === 'nearby');
  if (firstNearby >= 0) expect(result.results.slice(firstNearby).every((r) => r.match === 'nearby')).toBe(true);
  // exact vs nearby follows the points-served table for a ZIP
  if (place.kind === 'zip') {
    const served = new Set(oracle.servicePointsOfZip(place.zips[0]).map((p) => p.carrier));
    for (const c of scope) if (served.has(c)) expect(result.byCarrier[c].length > 0 && result.byCarrier[c].every((r) => r.match === 'exact')).toBe(true);
  }
  if (place.kind === 'state') expect(result.results.every((r) => r.match === 'exact')).toBe(true);
  return true;
}

const RUNS = { numRuns: 300, seed: SEED };

describe('search (unified) against the brute-force oracle', () => {
  it('ZIP queries: per-carrier lists, ordering, totals and matchType', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: zipArb() }, { weight: 1, arbitrary: unknownZip() }), optionalRadius, carriersArb(), (zip, radius, carriers) => {
        checkSearch({ zip, radius, carriers });
      }),
      RUNS,
    );
  });

  it('city / state / combined queries', () => {
    fc.assert(
      fc.property(placeQueryArb(), optionalRadius, carriersArb(), (q, radius, carriers) => {
        checkSearch({ ...q, radius, carriers });
      }),
      { numRuns: 250, seed: SEED + 1 },
    );
  });

  it('radius 100 around the edge ZIPs (Aleutians, Alaska, Hawaii, Pacific islands)', () => {
    for (const zip of EDGE_ZIPS) for (const radius of [1, 25, 100]) checkSearch({ zip, radius });
  });

  it('exercised every branch, and left few runs undecided at the radius edge', () => {
    expect(skipped).toBeLessThan(5);
    for (const [branch, count] of Object.entries(seen)) expect(count, `${branch} in ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(20);
  });
});

describe('searchBatch against per-ZIP exact lookups', () => {
  it('each entry equals the exact step of search and of the oracle', () => {
    const unified = () => oracle.unifiedIds;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof({ weight: 4, arbitrary: zipArb() }, { weight: 1, arbitrary: unknownZip() }), { minLength: 1, maxLength: 20 }),
        (zips) => {
          const batch = engine.searchBatch({ zips });
          expect(batch.success).toBe(true);
          expect(batch.count).toBe(zips.length);
          expect(batch.maxPerRequest).toBe(50);
          expect(batch.results.map((r) => r.zip)).toEqual(zips);
          for (const entry of batch.results) {
            const place = oracle.resolve({ zip: entry.zip });
            expectResolved(entry.resolved, place);
            expect(Object.keys(entry.byCarrier).sort()).toEqual([...unified()].sort());
            const single = engine.search({ zip: entry.zip });
            let total = 0;
            for (const c of unified()) {
              const exactOnly = single.byCarrier[c].filter((r) => r.match === 'exact');
              expect(entry.byCarrier[c]).toEqual(exactOnly);
              const answer = place ? oracle.answer(place, c, 0, false) : { carrier: c, kind: 'none' as const, hits: [], borderline: false };
              expectCarrierList(entry.byCarrier[c], answer);
              total += answer.hits.length;
            }
            expect(entry.total).toBe(total);
            expect(entry.matchType).toBe(total > 0 ? 'exact' : 'none');
          }
        },
      ),
      { numRuns: 100, seed: SEED + 2 },
    );
  });
});

describe('whichCarriers against the oracle', () => {
  it('carriers / notServedBy partition the unified carriers; nearestTerminal is the nearest result', () => {
    fc.assert(
      fc.property(placeQueryArb(), optionalRadius, (q, radius) => {
        const result = engine.whichCarriers({ ...q, radius });
        const place = oracleResolve(q, result.resolved);
        const r = radiusOf(radius);
        const answers = place ? oracle.unifiedIds.map((c) => oracle.answer(place, c, r)) : [];
        if (answers.some((a) => a.borderline)) return;
        expectResolved(result.resolved, place);
        expect(result.query.radiusMiles).toBe(r);
        const serving = answers.filter((a) => a.kind !== 'none').sort(byDistanceThenId);
        expect(result.carriers.map((c) => c.carrier)).toEqual(serving.map((a) => a.carrier));
        result.carriers.forEach((c, i) => {
          const a = serving[i];
          expect(c.name).toBe(oracle.carrierById.get(a.carrier)!.name);
          expect(c.serviceType).toBe(a.kind === 'exact' ? 'direct' : 'nearby');
          expectNearestTerminal(c.nearestTerminal, a.hits[0]);
        });
        expect(result.carrierCount).toBe(serving.length);
        expect(result.served).toBe(serving.length > 0);
        const servedIds = result.carriers.map((c) => c.carrier);
        expect(new Set([...servedIds, ...result.notServedBy]).size).toBe(servedIds.length + result.notServedBy.length);
        expect([...servedIds, ...result.notServedBy].sort()).toEqual([...oracle.unifiedIds].sort());
      }),
      { numRuns: 250, seed: SEED + 3 },
    );
  });
});

describe('canReach against the oracle', () => {
  it('canReach, serviceType, nearestTerminal and alternatives follow the can-reach carriers', () => {
    fc.assert(
      fc.property(fc.constantFrom(...oracle.canReachIds), placeQueryArb(), optionalRadius, (carrier, q, radius) => {
        const result = engine.canReach({ carrier, ...q, radius });
        const place = oracleResolve(q, result.resolved);
        const r = radiusOf(radius);
        const answers = place ? oracle.canReachIds.map((c) => oracle.answer(place, c, r)) : [];
        if (answers.some((a) => a.borderline)) return;
        expectResolved(result.resolved, place);
        expect(result.carrier).toBe(carrier);
        expect(result.carrierName).toBe(oracle.carrierById.get(carrier)!.name);
        expect(result.query.radius).toBe(r);
        const own = answers.find((a) => a.carrier === carrier);
        const reached = own !== undefined && own.kind !== 'none';
        expect(result.canReach).toBe(reached);
        expect(result.serviceType).toBe(!reached ? 'none' : own!.kind === 'exact' ? 'direct' : 'nearby');
        const nearest = reached ? own!.hits[0] : place ? oracle.nearestOf(carrier, place.lat, place.lng) : null;
        expectNearestTerminal(result.nearestTerminal, nearest);
        const alternatives = answers.filter((a) => a.carrier !== carrier && a.kind !== 'none').sort(byDistanceThenId);
        expect(result.alternatives.map((a) => a.carrier)).toEqual(alternatives.map((a) => a.carrier));
        result.alternatives.forEach((alt, i) => {
          expect(alt.serviceType).toBe(alternatives[i].kind === 'exact' ? 'direct' : 'nearby');
          expect(alt.name).toBe(oracle.carrierById.get(alt.carrier)!.name);
          expectMiles(alt.distanceMiles, alternatives[i].hits[0].miles);
        });
        // which-carriers-style consistency: a unified can-reach carrier is served there iff it can reach
        if (place && oracle.carrierById.get(carrier)!.unified) {
          const which = engine.whichCarriers({ ...q, radius });
          expect(which.carriers.some((c) => c.carrier === carrier)).toBe(result.canReach);
        }
      }),
      { numRuns: 250, seed: SEED + 4 },
    );
  });
});

describe('dropPoints against a brute-force radius scan', () => {
  const postal = () => oracle.carriers.filter((c) => c.kind === 'postal').map((c) => c.id);

  function expectedDropPoints(zip: string, radius: number): Hit[] {
    const z = oracle.zipByCode.get(zip);
    if (!z) return [];
    return postal()
      .flatMap((c) => oracle.within(z.lat, z.lng, c, radius).hits)
      .sort((a, b) => a.miles - b.miles || a.loc.rank - b.loc.rank);
  }

  it('every page equals the oracle slice (page size 25), with true totals', () => {
    fc.assert(
      fc.property(
        fc.oneof({ weight: 9, arbitrary: zipArb() }, { weight: 1, arbitrary: unknownZip() }),
        optionalRadius,
        fc.integer({ min: 1, max: 40 }),
        (zip, radius, pageWish) => {
          const r = radiusOf(radius);
          const z = oracle.zipByCode.get(zip);
          if (z && postal().some((c) => oracle.within(z.lat, z.lng, c, r).borderline)) return;
          const all = expectedDropPoints(zip, r);
          const totalPages = Math.ceil(all.length / PAGE_SIZE);
          // mostly a page that exists, sometimes one past the end
          const page = totalPages === 0 ? pageWish % 3 + 1 : ((pageWish - 1) % (totalPages + 1)) + 1;
          const result = engine.dropPoints({ zip, radius, page });
          expect(result.success).toBe(true);
          expect(result.total).toBe(all.length);
          expect(result.totalPages).toBe(totalPages);
          expect(result.currentPage).toBe(page);
          const slice = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
          expect(result.locations.map((l) => l.terminalCode)).toEqual(slice.map((h) => h.loc.terminalCode));
          result.locations.forEach((l, i) => {
            const { distanceMiles, ...record } = l;
            expect(record).toEqual(oracle.record(slice[i].loc));
            expectMiles(distanceMiles!, slice[i].miles);
          });
        },
      ),
      { numRuns: 200, seed: SEED + 5 },
    );
  });

  it('pages concatenate to the whole scan around dense and remote ZIPs', () => {
    for (const [zip, radius] of [['10001', 5], ['60601', 3], ['99546', 100], ['96898', 100], ['96813', 100]] as const) {
      const all = expectedDropPoints(zip, radius);
      const seen: string[] = [];
      const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
      for (let page = 1; page <= pages + 1; page++) seen.push(...engine.dropPoints({ zip, radius, page }).locations.map((l) => l.terminalCode));
      expect(seen).toEqual(all.map((h) => h.loc.terminalCode));
    }
  });
});

describe('geocode against the gazetteer', () => {
  it('found iff the civilian gazetteer holds the ZIP, with its place and point', () => {
    fc.assert(
      fc.property(fc.oneof(zipArb(), unknownZip(), fc.integer({ min: 0, max: 99_999 }).map((n) => String(n).padStart(5, '0'))), (zip) => {
        const result = engine.geocode({ zip });
        const z = oracle.zipByCode.get(zip);
        expect(result).toEqual({
          success: true,
          zip,
          found: z !== undefined,
          location: z ? { city: z.city, state: z.state, lat: z.lat, lng: z.lng } : null,
        });
      }),
      { numRuns: 300, seed: SEED + 6 },
    );
  });
});
