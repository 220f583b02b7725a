// Suggestions for a city that does not resolve, on the sample and the GeoNames gazetteer: expected
// names written by hand, checked against the ZIPs' own cities, and the answers' shape.

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { nameKey, releaseStableSampleDir, sampleOracle } from './oracle.js';
import { sampleEngine } from './sample-engine.js';
import { parsedQueries } from '../../engine/engine.js';

const engine = sampleEngine();
const oracle = sampleOracle();
afterAll(() => releaseStableSampleDir());

/** Each suggestion's ZIP geocodes to the suggested city and state. */
function expectConsistent(suggestions: { city: string; state: string; zip: string }[] | undefined) {
  expect(suggestions).toBeDefined();
  expect(suggestions!.length).toBeGreaterThan(0);
  expect(suggestions!.length).toBeLessThanOrEqual(5);
  for (const s of suggestions!) expect(engine.geocode({ zip: s.zip }).location).toMatchObject({ city: s.city, state: s.state });
}

describe('suggestions', () => {
  it('city=sant louis&state=MO: matchType none, Saint Louis first, all in Missouri', () => {
    const answer = engine.search({ city: 'sant louis', state: 'MO' });
    expect(answer.matchType).toBe('none');
    expectConsistent(answer.suggestions);
    expect(answer.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    expect(answer.suggestions!.every((s) => s.state === 'MO')).toBe(true);
    // the server's JSON writer answers the same
    expect(JSON.parse(parsedQueries(engine).searchJson({ city: 'sant louis', state: 'MO' }))).toEqual(answer);
  });

  it('abbreviations are the same word: "ft wrth" suggests Fort Worth, "mt vernan" Mount Vernon, "st pual" Saint Paul', () => {
    expect(engine.search({ city: 'ft wrth', state: 'TX' }).suggestions![0]).toMatchObject({ city: 'Fort Worth', state: 'TX' });
    expect(engine.search({ city: 'st pual', state: 'MN' }).suggestions![0]).toMatchObject({ city: 'Saint Paul', state: 'MN' });
    // without a state: everywhere, the place with the most ZIPs first among equals
    const everywhere = engine.search({ city: 'mt vernan' }).suggestions!;
    expectConsistent(everywhere);
    expect(everywhere[0].city).toBe('Mount Vernon');
    expect(new Set(everywhere.map((s) => s.state)).size).toBeGreaterThan(1);
  });

  it('a city that resolves has no suggestions; nothing near is an empty list', () => {
    expect(engine.search({ city: 'saint louis', state: 'MO' })).not.toHaveProperty('suggestions');
    expect(engine.search({ zip: '63101' })).not.toHaveProperty('suggestions');
    expect(engine.search({ city: 'qqqqqqqqqqqq', state: 'MO' }).suggestions).toEqual([]);
  });

  it('which-carriers and can-reach suggest as search does', () => {
    const which = engine.whichCarriers({ city: 'sant louis', state: 'MO' });
    expect(which.served).toBe(false);
    expect(which.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    const reach = engine.canReach({ carrier: 'carrier-e', city: 'sant louis', state: 'MO' });
    expect(reach.canReach).toBe(false);
    expect(reach.suggestions).toEqual(which.suggestions);
  });

  it("a carrier's city filter: within the state it is listed by, or the ZIP's", () => {
    const byState = engine.carrierLocations('carrier-e', { state: 'MO', city: 'sant louis' });
    expect(byState.total).toBe(0);
    expect(byState.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    const byZip = engine.carrierLocations('carrier-a', { zip: '63101', city: 'sant louis' });
    expect(byZip.total).toBe(0);
    expect(byZip.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    expect(engine.carrierLocations('carrier-e', { state: 'MO', city: 'saint louis' })).not.toHaveProperty('suggestions');
  });
});

/** Levenshtein distance by the textbook table: the reference for the package the engine uses. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

describe('suggestions against a brute-force reference', () => {
  it('misspelt names of real places: the nearest 5 by edit distance, more ZIPs first, then by name', () => {
    const places = oracle.places;
    let compared = 0;
    fc.assert(
      fc.property(fc.nat({ max: places.length - 1 }), fc.nat({ max: 40 }), fc.constantFrom('x', 'q', ''), fc.boolean(), (i, at, letter, inState) => {
        const place = places[i];
        const k = at % Math.max(1, place.city.length);
        // one letter replaced by another, or dropped
        const typed = place.city.slice(0, k) + letter + place.city.slice(k + 1);
        const key = nameKey(typed);
        const state = inState ? place.state : undefined;
        const candidates = places.filter((p) => state === undefined || p.state === state);
        if (key === '' || candidates.some((p) => p.key === key)) return; // it resolves: no suggestions asked for
        const most = Math.max(2, Math.ceil(key.length / 2));
        const expected = candidates
          .map((p) => ({ p, d: editDistance(key, p.key) }))
          .filter(({ d }) => d <= most)
          .sort((a, b) => a.d - b.d || b.p.zips.length - a.p.zips.length || (a.p.city < b.p.city ? -1 : a.p.city > b.p.city ? 1 : 0) || (a.p.state < b.p.state ? -1 : 1))
          .slice(0, 5)
          .map(({ p }) => [p.city, p.state]);
        const answer = engine.search({ city: typed, state });
        expect(answer.matchType).toBe('none');
        expect(answer.suggestions!.map((s) => [s.city, s.state])).toEqual(expected);
        compared++;
      }),
      { numRuns: 60, seed: 31 },
    );
    expect(compared).toBeGreaterThan(30);
  });
});
